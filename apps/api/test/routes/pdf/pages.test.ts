import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processingApp, errorOf } from '../../fixtures/api';
import { testDocument } from '../../fixtures/documents';
import { numberedPdf, pageCount, pagesText, rotations, qpdfCheck } from '../../fixtures/pdfs';
import { saveBody, unzip } from '../../fixtures/results';

let api: Awaited<ReturnType<typeof processingApp>>;
beforeAll(async () => {
  api = await processingApp();
});
afterAll(() => api.t.close());

const firstLines = (file: string) => pagesText(file).map((t) => t.split('\n')[0]);

describe('POST /pdf/merge', () => {
  it('200: the files merged in the order sent, as a PDF attachment with metering headers', async () => {
    const a = await numberedPdf(2, 'Alpha');
    const b = await numberedPdf(1, 'Bravo');
    const res = await api.post('/pdf/merge', {}, [
      { field: 'files', content: a, filename: 'alpha.pdf' },
      { field: 'files', content: b, filename: 'bravo.pdf' },
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe('attachment; filename="alpha-merged.pdf"');
    expect(Number(res.headers['x-processing-time-ms'])).toBeGreaterThanOrEqual(0);
    expect(res.headers['x-request-id']).toBeTruthy();
    expect(res.headers['ratelimit-limit']).toBeTruthy();
    const file = saveBody(res.rawPayload);
    expect(firstLines(file)).toEqual(['Alpha Page 1', 'Alpha Page 2', 'Bravo Page 1']);
    expect(qpdfCheck(file).out).not.toMatch(/WARNING/);
  });

  it('200: `order` reorders the files; Accept: application/json gives base64', async () => {
    const res = await api.post(
      '/pdf/merge',
      { order: '2,1' },
      [
        { field: 'files', content: await numberedPdf(1, 'One'), filename: 'one.pdf' },
        { field: 'files', content: await numberedPdf(1, 'Two'), filename: 'two.pdf' },
      ],
      { accept: 'application/json' },
    );
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      success: true,
      data: { fileName: 'two-merged.pdf', mimeType: 'application/pdf', pages: 2 },
    });
    const file = saveBody(Buffer.from(body.data.base64, 'base64'));
    expect(body.data.size).toBe(Buffer.from(body.data.base64, 'base64').length);
    expect(firstLines(file)).toEqual(['Two Page 1', 'One Page 1']);
  });

  it('422: one file, 21 files, a bad order', async () => {
    const one = await numberedPdf(1, 'Solo');
    expect(errorOf(await api.post('/pdf/merge', {}, [{ field: 'files', content: one }]))).toMatchObject({
      status: 422,
      code: 'INVALID_INPUT',
    });
    const many = Array.from({ length: 21 }, () => ({ field: 'files', content: one }));
    const tooMany = errorOf(await api.post('/pdf/merge', {}, many));
    expect(tooMany).toMatchObject({ status: 422, code: 'INVALID_INPUT' });
    expect(tooMany.error).toMatch(/at most 2[01]/);
    const bad = errorOf(
      await api.post('/pdf/merge', { order: '1,1' }, [
        { field: 'files', content: one },
        { field: 'files', content: one },
      ]),
    );
    expect(bad).toMatchObject({ status: 422, code: 'INVALID_INPUT' });
    expect(bad.error).toMatch(/^order: /);
  });

  it('401 without a key; 403 for a plan without the pdf group', async () => {
    const res = await api.t.app.inject({ method: 'POST', url: '/api/v1/pdf/merge' });
    expect(errorOf(res)).toMatchObject({ status: 401, code: 'API_KEY_REQUIRED' });
    const { createUserWithApiKey } = await import('../../support/api-keys');
    const { apiKey } = await createUserWithApiKey(api.t, { plan: 'free' });
    const free = await api.t.app.inject({ method: 'POST', url: '/api/v1/pdf/merge', headers: { 'x-api-key': apiKey } });
    expect(errorOf(free)).toMatchObject({ status: 403, code: 'ENDPOINT_NOT_ALLOWED' });
  });
});

describe('POST /pdf/split', () => {
  it('200: a zip with one PDF per range', async () => {
    const res = await api.post('/pdf/split', { mode: 'ranges', ranges: '1-2,4' }, [
      { content: await numberedPdf(5, 'Sp'), filename: 'report.pdf' },
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    expect(res.headers['content-disposition']).toBe('attachment; filename="report-split.zip"');
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    const z = unzip(res.rawPayload);
    expect(z.names).toEqual(['report-pages-1-2.pdf', 'report-page-4.pdf']);
    expect(z.paths.map(pageCount)).toEqual([2, 1]);
    expect(firstLines(z.paths[1]!)).toEqual(['Sp Page 4']);
  });

  it('200: every N pages and each page; one range gives the PDF itself', async () => {
    const src = await numberedPdf(5, 'Ev');
    const every = unzip((await api.post('/pdf/split', { mode: 'every', every: 2 }, [{ content: src }])).rawPayload);
    expect(every.paths.map(pageCount)).toEqual([2, 2, 1]);
    const each = unzip((await api.post('/pdf/split', { mode: 'each' }, [{ content: src }])).rawPayload);
    expect(each.paths).toHaveLength(5);
    const single = await api.post('/pdf/split', { mode: 'ranges', ranges: '3' }, [{ content: src, filename: 'x.pdf' }]);
    expect(single.headers['content-type']).toBe('application/pdf');
    expect(firstLines(saveBody(single.rawPayload))).toEqual(['Ev Page 3']);
  });

  it('422: invalid ranges and modes name the field and the valid form', async () => {
    const src = await numberedPdf(3, 'Bad');
    for (const ranges of ['5-2', '0', 'abc', '4']) {
      const e = errorOf(await api.post('/pdf/split', { mode: 'ranges', ranges }, [{ content: src }]));
      expect(e).toMatchObject({ status: 422, code: 'INVALID_INPUT' });
      expect(e.error).toMatch(/^ranges: .*valid: page numbers from 1 to 3/);
    }
    const mode = errorOf(await api.post('/pdf/split', { mode: 'halves' }, [{ content: src }]));
    expect(mode).toMatchObject({ status: 422, code: 'INVALID_INPUT' });
    expect(mode.error).toMatch(/^mode: .*"ranges".*"every".*"each"/);
    expect(errorOf(await api.post('/pdf/split', { mode: 'every', every: 0 }, [{ content: src }]))).toMatchObject({
      status: 422,
    });
  });
});

describe('POST /pdf/extract-pages, delete-pages, reorder, rotate', () => {
  it('200: each does what it says', async () => {
    const src = await numberedPdf(4, 'Pg');
    expect(
      firstLines(saveBody((await api.post('/pdf/extract-pages', { pages: '3,1' }, [{ content: src }])).rawPayload)),
    ).toEqual(['Pg Page 3', 'Pg Page 1']);
    expect(
      firstLines(saveBody((await api.post('/pdf/delete-pages', { pages: '1-2' }, [{ content: src }])).rawPayload)),
    ).toEqual(['Pg Page 3', 'Pg Page 4']);
    expect(
      firstLines(saveBody((await api.post('/pdf/reorder', { order: '4,3,2,1' }, [{ content: src }])).rawPayload)),
    ).toEqual(['Pg Page 4', 'Pg Page 3', 'Pg Page 2', 'Pg Page 1']);
    const rotated = await api.post('/pdf/rotate', { angle: '270', pages: '2-3' }, [
      { content: src, filename: 'scan.pdf' },
    ]);
    expect(rotated.headers['content-disposition']).toBe('attachment; filename="scan-rotated.pdf"');
    expect(rotations(saveBody(rotated.rawPayload))).toEqual([0, 270, 270, 0]);
  });

  it('422: bad angle, missing pages, deleting everything', async () => {
    const src = await numberedPdf(2, 'Pg');
    const angle = errorOf(await api.post('/pdf/rotate', { angle: '45' }, [{ content: src }]));
    expect(angle).toMatchObject({ status: 422, code: 'INVALID_INPUT' });
    expect(angle.error).toMatch(/^angle: /);
    expect(errorOf(await api.post('/pdf/extract-pages', {}, [{ content: src }])).error).toMatch(/^pages: /);
    expect(errorOf(await api.post('/pdf/delete-pages', { pages: 'all' }, [{ content: src }])).error).toMatch(
      /every page/,
    );
  });

  it('a non-ASCII file name gets an RFC 5987 filename*', async () => {
    const res = await api.post('/pdf/rotate', { angle: 90 }, [
      { content: await testDocument('page_1.pdf'), filename: 'Résumé ß.pdf' },
    ]);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="Resume _-rotated.pdf"; filename*=UTF-8''R%C3%A9sum%C3%A9%20%C3%9F-rotated.pdf`,
    );
  });
});
