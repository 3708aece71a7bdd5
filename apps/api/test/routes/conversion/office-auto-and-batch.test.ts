import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, processingApp } from '../../fixtures/api';
import { watchTools } from '../../fixtures/engines';
import { testDocument } from '../../fixtures/documents';
import { flateBombPdf, numberedPdf, pageCount, pagesText, run } from '../../fixtures/pdfs';
import { saveBody, unzip } from '../../fixtures/results';

/**
 * Conversion routes through the whole API path (key, plan group, upload, detection, engines, answer), outputs read
 * back with poppler.
 */
let api: Awaited<ReturnType<typeof processingApp>>;
beforeAll(async () => {
  api = await processingApp({ maxPagesPerPdf: 50, allowedEndpoints: ['conversion', 'pdf', 'batch'] });
}, 60_000);
afterAll(async () => {
  await api.t.close();
});

const pdfOf = (res: { statusCode: number; rawPayload: Buffer; body: string }) => {
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  return saveBody(res.rawPayload);
};
const png = (color: string, w = 300, h = 200) =>
  sharp({ create: { width: w, height: h, channels: 3, background: color } })
    .png()
    .toBuffer();

describe('office documents (LibreOffice)', () => {
  it('word-to-pdf: a 3-page DOCX keeps its pages and text, named after the upload', async () => {
    const res = await api.post('/conversion/word-to-pdf', {}, [{ content: await testDocument('pages_3.docx') }]);
    const file = pdfOf(res);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toContain('pages_3.pdf');
    expect(res.headers['x-processing-time-ms']).toBeDefined();
    expect(pagesText(file).map((t) => t.trim())).toEqual(['Page 1', 'Page 2', 'Page 3']);
  });

  it('pageRange keeps only the asked pages; pdfa answers PDF/A-2b', async () => {
    const file = pdfOf(
      await api.post('/conversion/word-to-pdf', { pageRange: '2-3', pdfa: 'true' }, [
        { content: await testDocument('pages_3.docx') },
      ]),
    );
    expect(pagesText(file).map((t) => t.trim())).toEqual(['Page 2', 'Page 3']);
    expect(run('pdfinfo', ['-meta', file])).toMatch(/pdfaid:part(>|=['"])2/);
  });

  it('a protected DOCX opens with its password; without it 422 PASSWORD_REQUIRED, wrong 422 WRONG_PASSWORD', async () => {
    expect(
      errorOf(
        await api.post('/conversion/word-to-pdf', {}, [{ content: await testDocument('protected_page_1.docx') }]),
      ),
    ).toMatchObject({ status: 422, code: 'PASSWORD_REQUIRED' });
    expect(
      errorOf(
        await api.post('/conversion/word-to-pdf', { password: 'bar' }, [
          { content: await testDocument('protected_page_1.docx') },
        ]),
      ),
    ).toMatchObject({ status: 422, code: 'WRONG_PASSWORD' });
    const file = pdfOf(
      await api.post('/conversion/word-to-pdf', { password: 'foo' }, [
        { content: await testDocument('protected_page_1.docx') },
      ]),
    );
    expect(pagesText(file)[0]).toContain('Page 1');
  });

  it('excel-to-pdf takes CSV; landscape turns the pages', async () => {
    const portrait = pdfOf(
      await api.post('/conversion/excel-to-pdf', {}, [{ content: await testDocument('sheet.csv') }]),
    );
    const landscape = pdfOf(
      await api.post('/conversion/excel-to-pdf', { landscape: 'true' }, [{ content: await testDocument('sheet.csv') }]),
    );
    const csvText = readFileSync(await testDocument('sheet.csv'), 'utf8')
      .split(/[\n,]/)[0]!
      .replace(/"/g, '')
      .trim();
    expect(pagesText(portrait).join(' ')).toContain(csvText);
    const size = (f: string) =>
      /Page size:\s+([\d.]+) x ([\d.]+)/
        .exec(run('pdfinfo', [f]))!
        .slice(1)
        .map(Number);
    const [pw, ph] = size(portrait);
    const [lw, lh] = size(landscape);
    expect(pw!).toBeLessThan(ph!);
    expect(lw!).toBeGreaterThan(lh!);
  });

  it('powerpoint-to-pdf takes a PPSX show file', async () => {
    const file = pdfOf(
      await api.post('/conversion/powerpoint-to-pdf', {}, [{ content: await testDocument('slideshow.ppsx') }]),
    );
    expect(pageCount(file)).toBeGreaterThan(0);
  });

  it('a converted document over the plan page limit: 422 PAGE_LIMIT_EXCEEDED', async () => {
    const small = await processingApp({ maxPagesPerPdf: 2, allowedEndpoints: ['conversion'] });
    try {
      const e = errorOf(
        await small.post('/conversion/word-to-pdf', {}, [{ content: await testDocument('pages_3.docx') }]),
      );
      expect(e).toMatchObject({ status: 422, code: 'PAGE_LIMIT_EXCEEDED' });
      expect(e.error).toMatch(/3 pages; your plan allows at most 2/);
    } finally {
      await small.t.close();
    }
  });
});

describe('formats are read from the bytes', () => {
  it('a PDF sent to word-to-pdf: 415 naming what the route takes and the route for PDFs', async () => {
    const e = errorOf(
      await api.post('/conversion/word-to-pdf', {}, [
        { content: await testDocument('page_1.pdf'), filename: 'report.docx' },
      ]),
    );
    expect(e).toMatchObject({ status: 415, code: 'UNSUPPORTED_FORMAT' });
    expect(e.error).toMatch(/is a PDF file; word-to-pdf takes doc, docx/);
  });

  it('an image sent to excel-to-pdf points to image-to-pdf', async () => {
    const e = errorOf(
      await api.post('/conversion/excel-to-pdf', {}, [
        { content: await png('#ff0000'), filename: 'sheet.xlsx', contentType: 'image/png' },
      ]),
    );
    expect(e).toMatchObject({ status: 415, code: 'UNSUPPORTED_FORMAT' });
    expect(e.error).toMatch(/image-to-pdf/);
  });

  it('a zero-byte file: 422 naming it', async () => {
    const e = errorOf(
      await api.post('/conversion/word-to-pdf', {}, [{ content: Buffer.alloc(0), filename: 'empty.docx' }]),
    );
    expect(e).toMatchObject({ status: 422, code: 'INVALID_INPUT' });
    expect(e.error).toMatch(/empty/);
  });

  it('random bytes named .docx: refused (only the name says docx: LibreOffice gets it and cannot read it), and the server still converts the next document', async () => {
    const junk = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919) % 251));
    const e = errorOf(await api.post('/conversion/word-to-pdf', {}, [{ content: junk, filename: 'junk.docx' }]));
    expect(e).toMatchObject({ status: 422, code: 'INVALID_DOCUMENT' });
    expect(e.error).not.toMatch(/\/tmp|soffice|uno/i);
    expect(
      pagesText(
        pdfOf(await api.post('/conversion/word-to-pdf', {}, [{ content: await testDocument('page_1.docx') }])),
      )[0],
    ).toContain('Page 1');
  });
});

describe('auto-to-pdf and batch-to-pdf', () => {
  it('auto-to-pdf refuses a PDF flate bomb before passing it through or running PDF/A over it: 422; batch lists it', async () => {
    for (const fields of [{}, { pdfa: 'true' }] as Array<Record<string, string>>) {
      const bomb = await flateBombPdf('text', 300);
      const tools = watchTools(api.t.app.engines);
      const res = await api.post('/conversion/auto-to-pdf', fields, [{ content: bomb }]);
      tools.stop();
      expect(errorOf(res)).toMatchObject({ status: 422, code: 'PDF_CONTENT_TOO_LARGE' });
      // Measured in process before anything else: no tool (PDF/A, repair, conversion) read it.
      expect(tools.calls()).toEqual([]);
    }
    const res = await api.post('/conversion/batch-to-pdf', {}, [
      { field: 'files', content: await testDocument('page_1.docx') },
      { field: 'files', content: await flateBombPdf('text', 300), filename: 'bomb.pdf' },
    ]);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const z = unzip(res.rawPayload);
    const manifest = JSON.parse(readFileSync(z.paths[z.names.indexOf('manifest.json')]!, 'utf8')) as {
      files: Array<{ file: string; ok: boolean; code?: string }>;
    };
    expect(manifest.files.map((f) => [f.file, f.ok, f.code])).toEqual([
      ['page_1.docx', true, undefined],
      ['bomb.pdf', false, 'PDF_CONTENT_TOO_LARGE'],
    ]);
  });

  it('auto-to-pdf dispatches a DOCX, a PNG and a PDF by their bytes whatever their names', async () => {
    const docx = pdfOf(
      await api.post('/conversion/auto-to-pdf', {}, [
        { content: await testDocument('page_2.docx'), filename: 'upload.bin' },
      ]),
    );
    expect(pagesText(docx)[0]).toContain('Page 2');
    const img = pdfOf(
      await api.post('/conversion/auto-to-pdf', {}, [{ content: await png('#00ff00'), filename: 'photo.dat' }]),
    );
    expect(pageCount(img)).toBe(1);
    const pdf = pdfOf(
      await api.post('/conversion/auto-to-pdf', { pageRange: '2' }, [
        { content: await numberedPdf(3, 'Auto'), filename: 'x' },
      ]),
    );
    const text = pagesText(pdf);
    expect(text).toHaveLength(1);
    expect(text[0]).toContain('Auto Page 2');
  });

  it('batch-to-pdf: a zip of PDFs and a manifest; a bad file is listed with its error and does not fail the others', async () => {
    const res = await api.post('/conversion/batch-to-pdf', {}, [
      { field: 'files', content: await testDocument('page_1.docx') },
      { field: 'files', content: Buffer.from('%PDF-1.7 broken'), filename: 'broken.pdf' },
      { field: 'files', content: await png('#0000ff'), filename: 'blue.png' },
    ]);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['x-converted-count']).toBe('2');
    expect(res.headers['x-failed-count']).toBe('1');
    const z = unzip(res.rawPayload);
    expect(z.names).toEqual(['page_1.pdf', 'blue.pdf', 'manifest.json']);
    const manifest = JSON.parse(readFileSync(z.paths[2]!, 'utf8')) as {
      files: Array<{ file: string; ok: boolean; code?: string; output?: string }>;
    };
    expect(manifest.files.map((f) => [f.file, f.ok])).toEqual([
      ['page_1.docx', true],
      ['broken.pdf', false],
      ['blue.png', true],
    ]);
    expect(manifest.files[1]!.code).toBe('INVALID_PDF');
    expect(pagesText(z.paths[0]!)[0]).toContain('Page 1');
  });

  it('batch needs the batch group: a key without it gets 403 naming the plan', async () => {
    const pro = await processingApp({ allowedEndpoints: ['conversion'] });
    try {
      const e = errorOf(
        await pro.post('/conversion/batch-to-pdf', {}, [
          { field: 'files', content: await testDocument('page_1.docx') },
        ]),
      );
      expect(e).toMatchObject({ status: 403, code: 'ENDPOINT_NOT_ALLOWED' });
    } finally {
      await pro.t.close();
    }
  });

  it('GET /conversion/formats lists every route with its formats, all available here', async () => {
    const res = await api.t.app.inject({
      method: 'GET',
      url: '/api/v1/conversion/formats',
      headers: { 'x-api-key': api.apiKey },
    });
    expect(res.statusCode).toBe(200);
    const data = res.json().data as { formats: Array<{ format: string; route: string; available: boolean }> };
    expect(data.formats.length).toBeGreaterThanOrEqual(15);
    expect(data.formats.find((f) => f.format === 'docx')).toMatchObject({
      route: '/api/v1/conversion/word-to-pdf',
      available: true,
    });
    expect(data.formats.find((f) => f.format === 'png')).toMatchObject({
      route: '/api/v1/conversion/image-to-pdf',
      available: true,
    });
    expect(data.formats.every((f) => f.available)).toBe(true);
  });
});
