import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processingApp, errorOf } from '../../fixtures/api';
import { watchTools } from '../../fixtures/engines';
import { testDocument } from '../../fixtures/documents';
import {
  countBombPdf,
  cyclicTreePdf,
  emptyFile,
  damagedFlateBombPdf,
  encryptedPdf,
  flateBombPdf,
  formBombPdf,
  hugeTreePdf,
  notAPdf,
  numberedPdf,
  pagesText,
  truncatedPdf,
} from '../../fixtures/pdfs';
import { saveBody } from '../../fixtures/results';

/**
 * Bad input never gives a 500 and never takes the server down: each case answers its status and code, and the next
 * good request is served.
 */
let api: Awaited<ReturnType<typeof processingApp>>;
beforeAll(async () => {
  api = await processingApp({
    maxPagesPerPdf: 1000,
    env: { PROCESSING_TIMEOUT_MS: '4000', PROCESSING_MAX_OUTPUT_MB: '16', PROCESSING_MEMORY_LIMIT_MB: '1024' },
  });
});
afterAll(async () => {
  await api.t.close();
});

async function stillServes() {
  const ok = await api.post('/pdf/rotate', { angle: 90 }, [{ content: await testDocument('page_1.pdf') }]);
  expect(ok.statusCode).toBe(200);
}

describe('bad input table', () => {
  const cases: Array<
    [
      string,
      () => Promise<{ route: string; fields?: Record<string, string>; file: string; filename?: string }>,
      number[],
      string[],
    ]
  > = [
    [
      'non-PDF renamed .pdf',
      async () => ({ route: '/pdf/rotate', fields: { angle: '90' }, file: await notAPdf() }),
      [415],
      ['UNSUPPORTED_FORMAT'],
    ],
    [
      'zero-byte file',
      async () => ({ route: '/pdf/rotate', fields: { angle: '90' }, file: await emptyFile() }),
      [422],
      ['INVALID_PDF'],
    ],
    [
      'truncated PDF (object streams)',
      async () => ({ route: '/pdf/rotate', fields: { angle: '90' }, file: await truncatedPdf('objstm') }),
      [422],
      ['INVALID_PDF'],
    ],
    [
      'encrypted PDF without password',
      async () => ({ route: '/pdf/extract-text', file: await encryptedPdf('user') }),
      [422],
      ['PASSWORD_REQUIRED'],
    ],
    [
      'wrong password',
      async () => ({ route: '/pdf/unlock', fields: { password: 'nope' }, file: await encryptedPdf('user') }),
      [422],
      ['WRONG_PASSWORD'],
    ],
    [
      'page tree over the plan limit (20 000 pages)',
      async () => ({ route: '/pdf/rotate', fields: { angle: '90' }, file: await hugeTreePdf(20_000) }),
      [422],
      ['PAGE_LIMIT_EXCEEDED'],
    ],
    [
      'cyclic page tree',
      async () => ({ route: '/pdf/rotate', fields: { angle: '90' }, file: await cyclicTreePdf() }),
      [422],
      ['INVALID_PDF'],
    ],
    [
      'bad parameter',
      async () => ({ route: '/pdf/rotate', fields: { angle: 'sideways' }, file: await testDocument('page_1.pdf') }),
      [422],
      ['INVALID_INPUT'],
    ],
    [
      'text-extraction decompression bomb',
      async () => ({ route: '/pdf/extract-text', file: await flateBombPdf('text', 300) }),
      [422],
      ['PDF_CONTENT_TOO_LARGE'],
    ],
    [
      'rendering decompression bomb',
      async () => ({ route: '/pdf/to-images', fields: { dpi: '72' }, file: await flateBombPdf('draw', 150) }),
      [422],
      ['PDF_CONTENT_TOO_LARGE'],
    ],
    [
      'text decompression bomb, rendered',
      async () => ({ route: '/pdf/to-images', fields: { dpi: '72' }, file: await flateBombPdf('text', 300) }),
      [422],
      ['PDF_CONTENT_TOO_LARGE'],
    ],
    [
      'text decompression bomb, compressed',
      async () => ({ route: '/pdf/compress', file: await flateBombPdf('text', 300) }),
      [422],
      ['PDF_CONTENT_TOO_LARGE'],
    ],
    [
      'text decompression bomb, repaired',
      async () => ({ route: '/pdf/repair', file: await flateBombPdf('text', 300) }),
      [422],
      ['PDF_CONTENT_TOO_LARGE'],
    ],
    [
      'damaged decompression bomb (no usable cross-reference), rendered: rebuilt by the tools, then measured',
      async () => ({ route: '/pdf/to-images', fields: { dpi: '72' }, file: await damagedFlateBombPdf() }),
      [422],
      ['PDF_CONTENT_TOO_LARGE'],
    ],
    [
      'decompression bomb in a Form XObject the page draws, rendered',
      async () => ({ route: '/pdf/to-images', fields: { dpi: '72' }, file: await formBombPdf() }),
      [422],
      ['PDF_CONTENT_TOO_LARGE'],
    ],
    [
      'damaged decompression bomb, repaired',
      async () => ({ route: '/pdf/repair', file: await damagedFlateBombPdf() }),
      [422],
      ['PDF_CONTENT_TOO_LARGE'],
    ],
  ];

  it.each(cases)('%s', async (_name, make, statuses, codes) => {
    const c = await make();
    const res = await api.post(c.route, c.fields ?? {}, [{ content: c.file, filename: c.filename ?? 'input.pdf' }]);
    const e = errorOf(res);
    expect(statuses).toContain(e.status);
    expect(codes).toContain(e.code);
    expect(e.error).not.toMatch(/\/tmp|docflow-ws|qpdf:|stderr/); // no internals leak
    // None hangs: this app's deadline is 4 s (PROCESSING_TIMEOUT_MS), and a case stopped by it would be TIMEOUT.
    await stillServes();
  });

  it('a flate bomb on /pdf/to-images: 422 PDF_CONTENT_TOO_LARGE within a few seconds, naming the page', async () => {
    const bomb = await flateBombPdf('text', 300);
    const tools = watchTools(api.t.app.engines);
    const res = await api.post('/pdf/to-images', { dpi: '72' }, [{ content: bomb }]);
    tools.stop();
    const e = errorOf(res);
    // Measured before rendering (and within this app's 4 s deadline, else it would be TIMEOUT): no renderer ran.
    expect(e).toMatchObject({ status: 422, code: 'PDF_CONTENT_TOO_LARGE' });
    expect(e.error).toMatch(/page 1 holds more than 32 MB of drawing instructions/);
    expect(tools.calls().map((c) => c.cmd)).not.toContainEqual(expect.stringMatching(/pdftoppm|pdftocairo|gs$|mutool/));
    await stillServes();
  });

  it('a one-page PDF claiming 10^9 pages is processed as its one page', async () => {
    const res = await api.post('/pdf/extract-text', {}, [{ content: await countBombPdf() }]);
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ pageCount: 1, pages: [{ page: 1, text: 'Count bomb' }] });
  });

  it('a PDF cut before its trailer: 422 pointing to /pdf/repair, which recovers it', async () => {
    const cut = await truncatedPdf('classic');
    const e = errorOf(await api.post('/pdf/rotate', { angle: 180 }, [{ content: cut }]));
    expect(e).toMatchObject({ status: 422, code: 'INVALID_PDF' });
    expect(e.error).toMatch(/\/pdf\/repair/);
    const res = await api.post('/pdf/repair', {}, [{ content: cut }]);
    expect(res.statusCode).toBe(200);
    expect(pagesText(saveBody(res.rawPayload))[0]).toContain('Cut Page 1');
  });

  it('a body that is not multipart: 415; a file over the plan size: 413', async () => {
    const res = await api.t.app.inject({
      method: 'POST',
      url: '/api/v1/pdf/rotate',
      headers: { 'x-api-key': api.apiKey, 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(errorOf(res)).toMatchObject({ status: 415 });
    const big = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(21 * 1_048_576)]);
    expect(errorOf(await api.post('/pdf/rotate', { angle: 90 }, [{ content: big }]))).toMatchObject({
      status: 413,
      code: 'FILE_TOO_LARGE',
    });
    await stillServes();
  });

  it('a refused file count names the file field in details (a form shows it beside that field), in any language', async () => {
    const pdf = await testDocument('page_1.pdf');
    const tooMany = await api.post('/pdf/rotate', { angle: 90 }, [{ content: pdf }, { content: pdf }]);
    expect(errorOf(tooMany)).toMatchObject({ status: 422, code: 'INVALID_INPUT' });
    expect(tooMany.json().details).toMatchObject({ field: 'file', max: 1 });
    const none = await api.post('/pdf/rotate', { angle: 90 }, [], { 'accept-language': 'fr' });
    expect(errorOf(none)).toMatchObject({ status: 422, code: 'INVALID_INPUT', error: 'Données invalides' });
    expect(none.json().details).toMatchObject({ field: 'file', min: 1, max: 1 });
  });

  it('the page limit of the key is enforced with PAGE_LIMIT_EXCEEDED before the work', async () => {
    const small = await processingApp({ maxPagesPerPdf: 3 });
    try {
      const res = await small.post('/pdf/rotate', { angle: 90 }, [{ content: await numberedPdf(4, 'Lim') }]);
      const e = errorOf(res);
      expect(e).toMatchObject({ status: 422, code: 'PAGE_LIMIT_EXCEEDED' });
      expect(e.error).toMatch(/has 4 pages; your plan allows at most 3/);
    } finally {
      await small.t.close();
    }
  });
});

describe('overload', () => {
  it('a full processing queue answers 503 QUEUE_FULL with Retry-After', async () => {
    const busy = await processingApp({ env: { PROCESSING_CONCURRENCY: '1', PROCESSING_QUEUE_SIZE: '0' } });
    try {
      const src = await numberedPdf(60, 'Busy');
      const results = await Promise.all(
        Array.from({ length: 6 }, () =>
          busy.post('/pdf/watermark', { text: 'BUSY', repeat: 'true' }, [{ content: src }]),
        ),
      );
      const statuses = results.map((r) => r.statusCode);
      expect(statuses).toContain(200);
      const full = results.find((r) => r.statusCode === 503);
      expect(full).toBeDefined();
      expect(full!.json()).toMatchObject({ code: 'QUEUE_FULL' });
      expect(Number(full!.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    } finally {
      await busy.t.close();
    }
  });
});
