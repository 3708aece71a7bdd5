import { readFileSync } from 'node:fs';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import type { TJob } from '@docflow/contracts';
import { errorOf, processingAppForSuite } from '../../fixtures/api';
import { form } from '../../fixtures/multipart';
import { allBlankPdf, blankPagesPdf, encryptedPdf, pageCount, pagesText, truncatedPdf } from '../../fixtures/pdfs';
import { saveBody } from '../../fixtures/results';

/**
 * POST /pdf/remove-blank-pages, read back with qpdf and pdftotext. The fixture: 1 text, 2 empty, 3 a scanned blank
 * sheet (grey paper noise with dust specks, an image), 4 only a small drawn mark (a 24 pt square), 5 text.
 */
const api = processingAppForSuite();

const remove = async (fields: Record<string, string | number> = {}, content?: string) =>
  api.post('/pdf/remove-blank-pages', fields, [{ content: content ?? (await blankPagesPdf()) }]);

describe('POST /pdf/remove-blank-pages', () => {
  it('200: the empty page and the scanned blank sheet go, the page with a small mark stays; headers name them', async () => {
    const res = await remove();
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['x-removed-pages']).toBe('2,3');
    expect(res.headers['x-removed-count']).toBe('2');
    const file = saveBody(res.rawPayload);
    expect(pageCount(file)).toBe(3);
    expect(pagesText(file)).toEqual(['Cover page', '', 'Last page']);
    // The page kept in the middle is the one with the mark: it still draws its square.
    const doc = await PDFDocument.load(readFileSync(file));
    expect(doc.getPage(1).node.Contents()).toBeDefined();
  });

  it('200: a higher threshold counts the small mark as blank; `pages` limits what may go', async () => {
    const loose = await remove({ threshold: 0.005 });
    expect(loose.headers['x-removed-pages']).toBe('2,3,4');
    expect(pagesText(saveBody(loose.rawPayload))).toEqual(['Cover page', 'Last page']);
    const some = await remove({ pages: '3-5' });
    expect(some.headers['x-removed-pages']).toBe('3');
    expect(pageCount(saveBody(some.rawPayload))).toBe(4);
  });

  it('200: a whiteLevel above the scan’s paper grey counts its noise as ink', async () => {
    const res = await remove({ whiteLevel: 250 });
    expect(res.headers['x-removed-pages']).toBe('2');
  });

  it('200: nothing blank, nothing removed', async () => {
    const res = await remove({ pages: '1,5' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-removed-pages']).toBe('');
    expect(res.headers['x-removed-count']).toBe('0');
    expect(pageCount(saveBody(res.rawPayload))).toBe(5);
  });

  it('422 ALL_PAGES_BLANK: a document blank throughout', async () => {
    const e = errorOf(await remove({}, await allBlankPdf()));
    expect(e).toMatchObject({ status: 422, code: 'ALL_PAGES_BLANK' });
    expect(e.error).toMatch(/^file: all 2 pages are blank/);
  });

  it('422: threshold and whiteLevel out of range, a damaged PDF, an encrypted one without its password', async () => {
    expect(errorOf(await remove({ threshold: 2 })).error).toMatch(/^threshold: /);
    expect(errorOf(await remove({ whiteLevel: 0 })).error).toMatch(/^whiteLevel: /);
    expect(errorOf(await remove({}, await truncatedPdf('objstm')))).toMatchObject({ status: 422, code: 'INVALID_PDF' });
    expect(errorOf(await remove({}, await encryptedPdf('user')))).toMatchObject({
      status: 422,
      code: 'PASSWORD_REQUIRED',
    });
  });

  it('async=true: the job keeps the removed pages with its result', async () => {
    const f = form({ async: 'true' }, [{ content: await blankPagesPdf() }]);
    const res = await api.t.app.inject({
      method: 'POST',
      url: '/api/v1/pdf/remove-blank-pages',
      payload: f.payload,
      headers: { ...f.headers, 'x-api-key': api.apiKey },
    });
    expect(res.statusCode).toBe(202);
    const { jobId } = res.json().data as { jobId: string };
    let job: TJob | undefined;
    for (let i = 0; i < 300 && !['succeeded', 'failed'].includes(job?.status ?? ''); i++) {
      await new Promise((r) => setTimeout(r, 100));
      job = (
        await api.t.app.inject({ method: 'GET', url: `/api/v1/jobs/${jobId}`, headers: { 'x-api-key': api.apiKey } })
      ).json().data as TJob;
    }
    expect(job).toMatchObject({ status: 'succeeded', result: { contentType: 'application/pdf' } });
    const out = await api.t.app.inject({ method: 'GET', url: job!.result!.url, headers: { 'x-api-key': api.apiKey } });
    expect(out.headers['x-removed-pages']).toBe('2,3');
    expect(pagesText(saveBody(out.rawPayload))).toEqual(['Cover page', '', 'Last page']);
  });

  it('as pipeline stages: blank pages removed, then the rest scaled to A5', async () => {
    const f = form(
      {
        stages: JSON.stringify([{ op: '/pdf/remove-blank-pages' }, { op: '/pdf/crop', mode: 'scale', size: 'A5' }]),
      },
      [{ content: await blankPagesPdf() }],
    );
    const res = await api.t.app.inject({
      method: 'POST',
      url: '/api/v1/pipeline',
      payload: f.payload,
      headers: { ...f.headers, 'x-api-key': api.apiKey },
    });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const file = saveBody(res.rawPayload);
    expect(pagesText(file)).toEqual(['Cover page', '', 'Last page']);
    const doc = await PDFDocument.load(readFileSync(file));
    for (const p of doc.getPages()) {
      expect(p.getCropBox().width).toBeCloseTo((148 / 25.4) * 72, 2);
      expect(p.getCropBox().height).toBeCloseTo((210 / 25.4) * 72, 2);
    }
  });
});
