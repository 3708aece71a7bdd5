import { describe, expect, it } from 'vitest';
import { errorCodes } from '@docflow/contracts';
import { AppError } from '../../../src/lib/app-error';
import { localiseError } from '../../../src/lib/i18n/localise-error';
import { processingAppForSuite } from '../../fixtures/api';
import { numberedPdf } from '../../fixtures/pdfs';

const api = processingAppForSuite({ maxPagesPerPdf: 2 });
const fr = { 'accept-language': 'fr-FR,fr;q=0.9' };

describe('processing errors follow Accept-Language, their codes unchanged', () => {
  it('a file that is not a PDF: French for a French reader, the precise English message otherwise', async () => {
    const send = (headers: Record<string, string>) =>
      api.post('/pdf/extract-text', {}, [{ content: Buffer.from('not a pdf at all'), filename: 'a.pdf' }], headers);
    const inFrench = await send(fr);
    const inEnglish = await send({ 'accept-language': 'en' });
    const asWritten = await send({});
    expect(inFrench.statusCode).toBe(inEnglish.statusCode);
    const [f, e, w] = [inFrench.json(), inEnglish.json(), asWritten.json()];
    expect(f.code).toBe(e.code);
    expect(['INVALID_PDF', 'UNSUPPORTED_FORMAT']).toContain(f.code);
    expect(inFrench.headers['content-language']).toBe('fr');
    expect(f.error).toBe(
      f.code === 'INVALID_PDF' ? "Le fichier n'est pas un PDF valide" : 'Format de fichier non pris en charge',
    );
    // English readers keep the message that names what is wrong.
    expect(e.error).toBe(w.error);
    expect(e.error).not.toBe(f.error);
    expect(f.details.detail).toBe(e.error);
  });

  it('more pages than the key allows: French words, the figures kept in details', async () => {
    const res = await api.post('/pdf/extract-text', {}, [{ content: await numberedPdf(3, 'P') }], fr);
    const json = res.json();
    expect([res.statusCode, json.code]).toEqual([422, 'PAGE_LIMIT_EXCEEDED']);
    expect(json.error).toBe('Le document a plus de pages que le plan ne le permet');
    const english = (await api.post('/pdf/extract-text', {}, [{ content: await numberedPdf(3, 'P') }])).json();
    expect(json.details).toEqual({ ...english.details, detail: english.error });
  });

  it("a field's problem names its zod code and bounds, so a client words it in its own language", async () => {
    const res = await api.post(
      '/pdf/watermark',
      { text: 'Draft', opacity: '7', color: 'red' },
      [{ content: await numberedPdf(1, 'W') }],
      fr,
    );
    const json = res.json();
    expect([res.statusCode, json.code]).toEqual([422, 'INVALID_INPUT']);
    const byField = Object.fromEntries((json.details.fields as Array<{ field: string }>).map((f) => [f.field, f]));
    // zod's own default words, in zod's French (no schema wrote them); the English reader keeps zod's English.
    expect(byField.opacity).toMatchObject({
      code: 'too_big',
      origin: 'number',
      maximum: 1,
      message: 'Trop grand : nombre doit être <=1',
    });
    const english = await api.post('/pdf/watermark', { text: 'Draft', opacity: '7' }, [
      { content: await numberedPdf(1, 'W') },
    ]);
    expect(english.json().details.fields[0]).toMatchObject({
      field: 'opacity',
      message: 'Too big: expected number to be <=1',
    });
    // A contracts message of its own: given in French, its code kept.
    expect(byField.color).toMatchObject({
      code: 'invalid_format',
      format: 'regex',
      message: 'doit être une couleur comme #rgb ou #rrggbb',
    });
  });

  it('a wrong API key and an unknown job', async () => {
    const wrong = await api.t.app.inject({
      method: 'POST',
      url: '/api/v1/qrcode/url',
      payload: { url: 'https://docflow.example' },
      headers: { 'x-api-key': 'dfk_not_a_key', ...fr },
    });
    expect([wrong.statusCode, wrong.json().code, wrong.json().error]).toEqual([
      401,
      'INVALID_API_KEY',
      'Clé API invalide',
    ]);
    const job = await api.t.app.inject({
      method: 'GET',
      url: '/api/v1/jobs/00000000-0000-4000-8000-000000000000',
      headers: { 'x-api-key': api.apiKey, ...fr },
    });
    expect([job.statusCode, job.json().code, job.json().error]).toEqual([404, 'JOB_NOT_FOUND', 'Job introuvable']);
  });

  it('every error code has a French message', () => {
    const untranslated = errorCodes.filter((code) => {
      const err = new AppError(code, 'An English message that is not in the catalogue');
      return localiseError(err, 'fr').message === err.message;
    });
    // A client's closed request has no answer at all.
    expect(untranslated).toEqual(['CLIENT_CLOSED_REQUEST']);
  });
});
