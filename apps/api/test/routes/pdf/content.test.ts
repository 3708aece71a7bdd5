import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processingApp, errorOf } from '../../fixtures/api';
import { testDocument } from '../../fixtures/documents';
import { encryptedPdf, formPdf, numberedPdf, pagesText, run, truncatedPdf } from '../../fixtures/pdfs';
import { saveBody, unzip } from '../../fixtures/results';

let api: Awaited<ReturnType<typeof processingApp>>;
beforeAll(async () => {
  api = await processingApp();
});
afterAll(() => api.t.close());

describe('POST /pdf/watermark and /pdf/page-numbers', () => {
  it('200: text on the pages asked only', async () => {
    const res = await api.post(
      '/pdf/watermark',
      { text: 'TOP SECRET', position: 'center', rotation: 0, pages: '2', color: '#0000ff', opacity: 0.4 },
      [{ content: await numberedPdf(3, 'Wm') }],
    );
    expect(res.statusCode).toBe(200);
    const text = pagesText(saveBody(res.rawPayload));
    expect(text.map((t) => t.includes('TOP SECRET'))).toEqual([false, true, false]);
  });

  it('200: an image watermark, tiled', async () => {
    const res = await api.post('/pdf/watermark', { repeat: 'true', scale: 0.05, spacingX: 20, spacingY: 20 }, [
      { content: await testDocument('page_1.pdf') },
      { field: 'image', content: await testDocument('watermark.png'), contentType: 'image/png' },
    ]);
    expect(res.statusCode).toBe(200);
    const images = run('pdfimages', ['-list', saveBody(res.rawPayload)])
      .split('\n')
      .filter((l) => /^\s+1\s/.test(l));
    expect(images.length).toBeGreaterThan(10);
  });

  it('422: neither text nor image, bad colour, bad position', async () => {
    const src = await numberedPdf(1, 'Wm');
    expect(errorOf(await api.post('/pdf/watermark', {}, [{ content: src }])).error).toMatch(/^text: /);
    const color = errorOf(await api.post('/pdf/watermark', { text: 'x', color: 'red' }, [{ content: src }]));
    expect(color).toMatchObject({ status: 422, code: 'INVALID_INPUT' });
    expect(color.error).toMatch(/^color: .*#rgb or #rrggbb/);
    expect(
      errorOf(await api.post('/pdf/watermark', { text: 'x', position: 'middle' }, [{ content: src }])).error,
    ).toMatch(/^position: .*"top-left"/);
    expect(errorOf(await api.post('/pdf/watermark', { text: 'x', opacity: 2 }, [{ content: src }])).error).toMatch(
      /^opacity: /,
    );
  });

  it('200: page numbers', async () => {
    const res = await api.post('/pdf/page-numbers', { format: 'p. {n}/{total}' }, [
      { content: await numberedPdf(2, 'Pn') },
    ]);
    expect(
      pagesText(saveBody(res.rawPayload)).map((t) => t.includes(`p. ${t.includes('Pn Page 1') ? 1 : 2}/2`)),
    ).toEqual([true, true]);
  });
});

describe('POST /pdf/protect and /pdf/unlock', () => {
  it('200: protected with AES-256 and the permissions asked; then unlocked', async () => {
    const res = await api.post(
      '/pdf/protect',
      { userPassword: 'u-pass', ownerPassword: 'o-pass', permissions: 'print,annotate' },
      [{ content: await numberedPdf(1, 'Pr') }],
    );
    expect(res.statusCode).toBe(200);
    const file = saveBody(res.rawPayload);
    expect(() => run('pdftotext', [file, '-'])).toThrow();
    const enc = run('qpdf', ['--password=u-pass', '--show-encryption', file]);
    expect(enc).toMatch(/AESv3/);
    expect(enc).toMatch(/print high resolution: allowed/);
    expect(enc).toMatch(/extract for any purpose: not allowed/);
    expect(enc).toMatch(/modify other: not allowed/);
    expect(enc).toMatch(/modify annotations: allowed/);
    const unlocked = await api.post('/pdf/unlock', { password: 'u-pass' }, [
      { content: res.rawPayload, filename: 'locked.pdf' },
    ]);
    expect(unlocked.statusCode).toBe(200);
    expect(unlocked.headers['content-disposition']).toBe('attachment; filename="locked-unlocked.pdf"');
    expect(pagesText(saveBody(unlocked.rawPayload))[0]).toContain('Pr Page 1');
  });

  it('422: no password given, wrong password, unknown permission, nothing to unlock', async () => {
    const locked = await encryptedPdf('user');
    expect(errorOf(await api.post('/pdf/unlock', {}, [{ content: locked }]))).toMatchObject({
      status: 422,
      code: 'INVALID_INPUT',
    });
    expect(errorOf(await api.post('/pdf/unlock', { password: 'wrong' }, [{ content: locked }]))).toMatchObject({
      status: 422,
      code: 'WRONG_PASSWORD',
    });
    expect(errorOf(await api.post('/pdf/rotate', { angle: 90 }, [{ content: locked }]))).toMatchObject({
      status: 422,
      code: 'PASSWORD_REQUIRED',
    });
    expect(
      (await api.post('/pdf/rotate', { angle: 90, password: 'open-sesame' }, [{ content: locked }])).statusCode,
    ).toBe(200);
    expect(
      errorOf(
        await api.post('/pdf/protect', { userPassword: 'x', permissions: 'print,fly' }, [
          { content: await numberedPdf(1, 'P') },
        ]),
      ).error,
    ).toMatch(/^permissions: unknown permission "fly"/);
    expect(errorOf(await api.post('/pdf/protect', {}, [{ content: await numberedPdf(1, 'P') }])).error).toMatch(
      /give at least one password/,
    );
    expect(
      errorOf(await api.post('/pdf/unlock', { password: 'x' }, [{ content: await numberedPdf(1, 'P') }])).error,
    ).toMatch(/not encrypted/);
  });
});

describe('metadata, analyze, extract-text', () => {
  it('200: metadata read, updated, read back', async () => {
    const read = await api.post('/pdf/metadata', {}, [{ content: await testDocument('titled_alpha.pdf') }]);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({
      success: true,
      data: { title: 'Alpha', pages: 2, encrypted: false, pdfVersion: '1.7' },
    });
    const upd = await api.post(
      '/pdf/metadata/update',
      { title: 'Nouveau titre é', author: 'Ana', clear: 'producer', creationDate: '2020-01-02T03:04:05Z' },
      [{ content: await testDocument('titled_alpha.pdf') }],
    );
    expect(upd.statusCode).toBe(200);
    const again = await api.post('/pdf/metadata', {}, [{ content: upd.rawPayload }]);
    expect(again.json().data).toMatchObject({ title: 'Nouveau titre é', author: 'Ana', producer: null, pages: 2 });
    expect(again.json().data.creationDate).toMatch(/^2020-01-02T03:04:05/);
    expect(
      errorOf(
        await api.post('/pdf/metadata/update', { creationDate: 'yesterday' }, [
          { content: await testDocument('page_1.pdf') },
        ]),
      ).error,
    ).toMatch(/^creationDate: /);
  });

  it('200: analysis', async () => {
    const res = await api.post('/pdf/analyze', {}, [{ content: await testDocument('pages_3.pdf') }]);
    expect(res.statusCode).toBe(200);
    const d = res.json().data;
    expect(d).toMatchObject({ pages: 3, encrypted: false, form: 'none', scanned: false, textPages: [1, 2, 3] });
    expect(d.fonts[0]).toMatchObject({ embedded: true });
    expect(d.sizeBreakdown.total).toBe(statSync(await testDocument('pages_3.pdf')).size);
  });

  it('200: text per page, layout, word boxes, page range', async () => {
    const res = await api.post('/pdf/extract-text', { pageRange: '2-3' }, [
      { content: await testDocument('pages_3.pdf') },
    ]);
    expect(res.json().data).toMatchObject({
      pageCount: 3,
      pages: [
        { page: 2, text: 'Page 2' },
        { page: 3, text: 'Page 3' },
      ],
    });
    const words = await api.post('/pdf/extract-text', { words: 'true', pageRange: '1' }, [
      { content: await testDocument('pages_3.pdf') },
    ]);
    expect(words.json().data.pages[0].words).toEqual([
      expect.objectContaining({ text: 'Page', xMin: expect.any(Number) }),
      expect.objectContaining({ text: '1' }),
    ]);
    expect(
      errorOf(
        await api.post('/pdf/extract-text', { pageRange: '2-1' }, [{ content: await testDocument('pages_3.pdf') }]),
      ).error,
    ).toMatch(/^pageRange: /);
  });
});

describe('compress, compression-analysis, to-images, extract-images', () => {
  it('200: smaller, with the size headers; never larger', async () => {
    const heavy = await testDocument('image-heavy.pdf');
    const heavySize = statSync(heavy).size;
    const res = await api.post('/pdf/compress', { level: 'high' }, [{ content: heavy }]);
    expect(res.statusCode).toBe(200);
    expect(Number(res.headers['x-original-size'])).toBe(heavySize);
    expect(Number(res.headers['x-compressed-size'])).toBe(res.rawPayload.length);
    expect(res.rawPayload.length).toBeLessThan(heavySize / 2);
    const page1 = await testDocument('page_1.pdf');
    const small = await api.post('/pdf/compress', { level: 'medium' }, [{ content: page1 }]);
    expect(small.rawPayload.length).toBeLessThanOrEqual(statSync(page1).size);
    expect(
      errorOf(await api.post('/pdf/compress', { level: 'max' }, [{ content: await testDocument('page_1.pdf') }])).error,
    ).toMatch(/^level: .*"low".*"medium".*"high"/);
    const analysis = await api.post('/pdf/compression-analysis', {}, [
      { content: await testDocument('image-heavy.pdf') },
    ]);
    expect(analysis.json().data).toMatchObject({ originalSize: heavySize, images: { count: 1 } });
    expect(analysis.json().data.estimates).toHaveLength(3);
  });

  it('200: one page as an image; several as a zip; at the dpi asked', async () => {
    const one = await api.post('/pdf/to-images', { pages: '2', dpi: 72 }, [
      { content: await testDocument('pages_3.pdf'), filename: 'doc.pdf' },
    ]);
    expect(one.headers['content-type']).toBe('image/png');
    expect(one.headers['content-disposition']).toBe('attachment; filename="doc-page-2.png"');
    const m = await sharp(one.rawPayload).metadata();
    expect([m.width, m.height]).toEqual([447, 632]);
    const zip = await api.post('/pdf/to-images', { format: 'jpg', dpi: 36 }, [
      { content: await testDocument('pages_3.pdf'), filename: 'doc.pdf' },
    ]);
    const z = unzip(zip.rawPayload);
    expect(z.names).toEqual(['doc-page-1.jpg', 'doc-page-2.jpg', 'doc-page-3.jpg']);
    expect((await sharp(z.paths[0]!).metadata()).format).toBe('jpeg');
    expect(
      errorOf(await api.post('/pdf/to-images', { dpi: 5000 }, [{ content: await testDocument('page_1.pdf') }])).error,
    ).toMatch(/^dpi: /);
  });

  it('200: embedded images in a zip; 422 when there are none', async () => {
    const res = await api.post('/pdf/extract-images', {}, [
      { content: await testDocument('image-heavy.pdf'), filename: 'pics.pdf' },
    ]);
    const z = unzip(res.rawPayload);
    expect(z.names[0]).toMatch(/^pics-page-1-image-1\.\w+$/);
    expect((await sharp(z.paths[0]!).metadata()).width).toBe(640);
    expect(
      errorOf(await api.post('/pdf/extract-images', {}, [{ content: await testDocument('page_1.pdf') }])).error,
    ).toMatch(/no images/);
  });
});

describe('flatten, repair, to-pdfa', () => {
  it('200: flattened form', async () => {
    const res = await api.post('/pdf/flatten', {}, [{ content: await formPdf() }]);
    const file = saveBody(res.rawPayload);
    expect(pagesText(file)[0]).toContain('Ada Lovelace');
    expect(JSON.parse(run('qpdf', ['--json', '--json-key=acroform', file])).acroform.fields).toHaveLength(0);
  });

  it('200: a truncated file repaired', async () => {
    const res = await api.post('/pdf/repair', {}, [{ content: await truncatedPdf('classic') }]);
    expect(res.statusCode).toBe(200);
    const file = saveBody(res.rawPayload);
    expect(execFileSync('qpdf', ['--check', file], { encoding: 'utf8' })).toMatch(
      /No syntax or stream encoding errors/,
    );
  });

  it('200: PDF/A-2b', async () => {
    const res = await api.post('/pdf/to-pdfa', {}, [{ content: await testDocument('page_1.pdf') }]);
    expect(res.rawPayload.toString('latin1')).toMatch(/pdfaid:part[='"]+2/);
  });
});
