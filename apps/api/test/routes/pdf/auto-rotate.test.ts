import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { TJob } from '@docflow/contracts';
import { errorOf, processingAppForSuite } from '../../fixtures/api';
import { form } from '../../fixtures/multipart';
import { encryptedPdf, pageCount, rotations, truncatedPdf } from '../../fixtures/pdfs';
import { saveBody } from '../../fixtures/results';
import { ENGLISH, normalise, scannedPdf, textImage } from '../ocr/ocr-images';

/**
 * POST /pdf/auto-rotate on scans the test makes: 1 upright, 2 turned a quarter clockwise (sideways), 3 upside down,
 * 4 a blank sheet (nothing to read: left alone). Read back: each page's /Rotate (qpdf) and, for the sideways one, the
 * page as a viewer shows it, rendered and read by tesseract.
 */
const api = processingAppForSuite();
let scans: Buffer;
beforeAll(async () => {
  const upright = await textImage({ lines: [...ENGLISH, ...ENGLISH], height: 900 });
  const blank = await sharp({ create: { width: 2480, height: 3508, channels: 3, background: '#ffffff' } })
    .png()
    .toBuffer();
  scans = await scannedPdf([
    upright,
    await sharp(upright).rotate(90).png().toBuffer(),
    await sharp(upright).rotate(180).png().toBuffer(),
    blank,
  ]);
});

const autoRotate = (fields: Record<string, string | number> = {}, content: Buffer | string = scans) =>
  api.post('/pdf/auto-rotate', fields, [{ content, filename: 'scans.pdf' }]);

/** Page `n` as a viewer shows it (rotation applied), read by tesseract. */
function shownText(pdf: string, n: number): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'docflow-auto-rotate-'));
  execFileSync('pdftoppm', ['-r', '200', '-gray', '-png', '-f', String(n), '-l', String(n), pdf, path.join(dir, 'p')]);
  const image = path.join(dir, readdirSync(dir)[0]!);
  return normalise(
    execFileSync('tesseract', [image, '-', '--psm', '3'], {
      env: { ...process.env, OMP_THREAD_LIMIT: '1' },
    }).toString(),
  );
}

describe('POST /pdf/auto-rotate', () => {
  it('200: the sideways and upside-down pages are turned upright, the upright and blank ones left; headers name them', async () => {
    const res = await autoRotate();
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['x-rotated-pages']).toBe('2:270,3:180');
    expect(res.headers['x-rotated-count']).toBe('2');
    const file = saveBody(res.rawPayload);
    expect(pageCount(file)).toBe(4);
    expect(rotations(file)).toEqual([0, 270, 180, 0]);
    expect(shownText(file, 2)).toContain('quick brown fox');
  });

  it('200: `pages` limits what may turn; a confidence no page reaches turns none', async () => {
    const some = await autoRotate({ pages: '1,3-4' });
    expect(some.headers['x-rotated-pages']).toBe('3:180');
    expect(rotations(saveBody(some.rawPayload))).toEqual([0, 0, 180, 0]);
    const none = await autoRotate({ confidence: 100 });
    expect(none.headers['x-rotated-pages']).toBe('');
    expect(rotations(saveBody(none.rawPayload))).toEqual([0, 0, 0, 0]);
  });

  it('422: a confidence out of range, pages outside the document, a damaged PDF, an encrypted one without its password', async () => {
    expect(errorOf(await autoRotate({ confidence: -1 })).error).toMatch(/^confidence: /);
    expect(errorOf(await autoRotate({ pages: '9' }))).toMatchObject({ status: 422 });
    expect(errorOf(await autoRotate({}, await truncatedPdf('objstm')))).toMatchObject({
      status: 422,
      code: 'INVALID_PDF',
    });
    expect(errorOf(await autoRotate({}, await encryptedPdf('user')))).toMatchObject({
      status: 422,
      code: 'PASSWORD_REQUIRED',
    });
  });

  it('async=true and as a pipeline stage, with no other edit: the same pages turned', async () => {
    const post = async (url: string, fields: Record<string, string>) => {
      const f = form(fields, [{ content: scans, filename: 'scans.pdf' }]);
      return api.t.app.inject({
        method: 'POST',
        url,
        payload: f.payload,
        headers: { ...f.headers, 'x-api-key': api.apiKey },
      });
    };
    const queued = await post('/api/v1/pdf/auto-rotate', { async: 'true' });
    expect(queued.statusCode).toBe(202);
    const { jobId } = queued.json().data as { jobId: string };
    let job: TJob | undefined;
    for (let i = 0; i < 600 && !['succeeded', 'failed'].includes(job?.status ?? ''); i++) {
      await new Promise((r) => setTimeout(r, 100));
      job = (
        await api.t.app.inject({ method: 'GET', url: `/api/v1/jobs/${jobId}`, headers: { 'x-api-key': api.apiKey } })
      ).json().data as TJob;
    }
    expect(job).toMatchObject({ status: 'succeeded', result: { contentType: 'application/pdf' } });
    const result = await api.t.app.inject({
      method: 'GET',
      url: job!.result!.url,
      headers: { 'x-api-key': api.apiKey },
    });
    expect(result.headers['x-rotated-pages']).toBe('2:270,3:180');

    const piped = await post('/api/v1/pipeline', {
      stages: JSON.stringify([{ op: '/pdf/auto-rotate' }, { op: '/pdf/delete-pages', pages: '4' }]),
    });
    expect(piped.statusCode, piped.body.slice(0, 300)).toBe(200);
    expect(rotations(saveBody(piped.rawPayload))).toEqual([0, 270, 180]);
  });
});
