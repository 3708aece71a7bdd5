import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { testDocument } from '../../fixtures/documents';
import { numberedPdf, pageCount, pagesText, rotations, run } from '../../fixtures/pdfs';
import { pdfOf } from '../../fixtures/results';
import { createUserWithApiKey } from '../../support/api-keys';
import { gotenbergAppForSuite, pdfFile } from './gotenberg-api';

/**
 * The watermark, stamp and rotate fields on the conversion and merge routes: Gotenberg applies them to the PDF it
 * produced (after a split, before PDF/A and metadata). Requests as its documentation writes them, read back with
 * poppler and qpdf.
 */
const api = gotenbergAppForSuite();

/** The page's text in content-stream order: what is drawn first (beneath) comes first. */
const drawnOrder = (file: string, page: number) =>
  run('pdftotext', ['-raw', '-f', String(page), '-l', String(page), file, '-'])
    .trim()
    .split('\n');
const indexHtml = (body: string) => ({
  content: Buffer.from(`<!doctype html><html><body>${body}</body></html>`),
  filename: 'index.html',
  contentType: 'text/html',
});

describe('watermark, stamp and rotate beside a conversion', () => {
  it('Chromium: a text watermark beneath the page, the page turned by rotateAngle', async () => {
    const file = pdfOf(
      await api.gotenberg(
        '/forms/chromium/convert/html',
        {
          watermarkSource: 'text',
          watermarkExpression: 'DRAFT',
          watermarkOptions: JSON.stringify({ rotation: '0', opacity: '0.3' }),
          rotateAngle: '90',
        },
        [indexHtml('<p>Quarterly figures</p>')],
      ),
    );
    expect(pageCount(file)).toBe(1);
    expect(drawnOrder(file, 1)[0]).toBe('DRAFT');
    expect(pagesText(file)[0]).toContain('Quarterly figures');
    expect(rotations(file)).toEqual([90]);
  });

  it('LibreOffice: a text stamp over page 1 only, page 2 turned by rotatePages', async () => {
    const file = pdfOf(
      await api.gotenberg(
        '/forms/libreoffice/convert',
        {
          stampSource: 'text',
          stampExpression: 'APPROVED',
          stampPages: '1',
          stampOptions: '{"rotation":"0","position":"bc"}',
          rotateAngle: '180',
          rotatePages: '2',
        },
        [pdfFile(await testDocument('pages_3.docx'), 'pages_3.docx')],
      ),
    );
    expect(pageCount(file)).toBe(3);
    expect(drawnOrder(file, 1).at(-1)).toBe('APPROVED');
    expect(pagesText(file)[1]).not.toContain('APPROVED');
    expect(rotations(file)).toEqual([0, 180, 0]);
  });

  it('merge: the merged PDF stamped with a PDF from the `stamp` file field, and its pages turned', async () => {
    const mark = { field: 'stamp', content: await numberedPdf(1, 'Seal'), filename: 'seal.pdf' };
    const file = pdfOf(
      await api.gotenberg(
        '/forms/pdfengines/merge',
        { stampSource: 'pdf', stampOptions: '{"scale":"0.5","rotation":"0"}', rotateAngle: '270' },
        [pdfFile(await numberedPdf(1, 'A'), '1_a.pdf'), pdfFile(await numberedPdf(1, 'B'), '2_b.pdf'), mark],
      ),
    );
    expect(pageCount(file)).toBe(2);
    expect(rotations(file)).toEqual([270, 270]);
    const text = pagesText(file);
    expect(text[0]).toContain('A Page 1');
    expect(text[1]).toContain('B Page 1');
    for (const page of text) expect(page).toContain('Seal Page 1');
  });

  it('400: a bad rotateAngle or mark source is named, as on the pdfengines routes', async () => {
    const res = await api.gotenberg('/forms/chromium/convert/html', { rotateAngle: '45', stampSource: 'svg' }, [
      indexHtml('<p>x</p>'),
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain("form field 'rotateAngle' is invalid (got '45'");
    expect(res.body).toContain("form field 'stampSource' is invalid (got 'svg'");
  });

  it("403: a key whose plan lacks the `pdf` group gets no watermark on a conversion (the pdf group's work)", async () => {
    const { apiKey } = await createUserWithApiKey(api.t, { plan: 'free' });
    const html = [indexHtml('<p>x</p>')];
    const res = await api.gotenberg(
      '/forms/chromium/convert/html',
      { watermarkSource: 'text', watermarkExpression: 'DRAFT' },
      html,
      { 'x-api-key': apiKey },
    );
    expect(res.statusCode).toBe(403);
    expect(res.body).toMatch(/pdf endpoints are not included/);
    // The same conversion without the mark is within the plan.
    expect((await api.gotenberg('/forms/chromium/convert/html', {}, html, { 'x-api-key': apiKey })).statusCode).toBe(
      200,
    );
  });
});

describe('generateDocumentOutline', () => {
  it("Chromium: the page's headings become the PDF's outline, read back by /forms/pdfengines/bookmarks/read", async () => {
    const html = indexHtml('<h1>Intro</h1><p>a</p><h1>Results</h1><p>b</p>');
    const file = pdfOf(
      await api.gotenberg('/forms/chromium/convert/html', { generateDocumentOutline: 'true' }, [html]),
    );
    const read = await api.gotenberg('/forms/pdfengines/bookmarks/read', {}, [pdfFile(readFileSync(file), 'out.pdf')]);
    expect(read.statusCode, read.body.slice(0, 300)).toBe(200);
    const titles = JSON.stringify(JSON.parse(read.body));
    expect(titles).toContain('Intro');
    expect(titles).toContain('Results');
    // Without the field (Gotenberg's default false) there is none.
    const plain = pdfOf(await api.gotenberg('/forms/chromium/convert/html', {}, [html]));
    const none = await api.gotenberg('/forms/pdfengines/bookmarks/read', {}, [pdfFile(readFileSync(plain), 'out.pdf')]);
    expect(JSON.stringify(JSON.parse(none.body))).not.toContain('Intro');
  });
});
