import { describe, expect, it } from 'vitest';
import { testDocument } from '../../fixtures/documents';
import { readFileSync } from 'node:fs';
import { PDFDocument, PDFName } from 'pdf-lib';
import { pageBoxesOf, pageCount, pagesText, run } from '../../fixtures/pdfs';
import { infoOf } from '../../fixtures/metadata-pdfs';
import { saveBody, unzip } from '../../fixtures/results';
import { gotenbergAppForSuite, pdfFile } from './gotenberg-api';

/**
 * /gotenberg/forms/libreoffice/convert as Gotenberg's documentation calls it (`--form files=@document.docx`), on the
 * real LibreOffice pool; outputs read back with poppler.
 */
const api = gotenbergAppForSuite();

type Res = { statusCode: number; rawPayload: Buffer; body: string; headers: Record<string, unknown> };
const ok = (res: Res, type: string) => {
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  expect(res.headers['content-type']).toBe(type);
  return res.rawPayload;
};
const docx = async (name: 'page_1.docx' | 'page_2.docx' | 'pages_3.docx' | 'protected_page_1.docx') =>
  pdfFile(await testDocument(name), name);
const texts = (file: string) => pagesText(file).map((t) => t.trim());

describe('POST /forms/libreoffice/convert', () => {
  it('200: one DOCX to one PDF, named by a UUID or by Gotenberg-Output-Filename', async () => {
    const res = await api.gotenberg('/forms/libreoffice/convert', {}, [await docx('pages_3.docx')]);
    const file = saveBody(ok(res, 'application/pdf'));
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="[0-9a-f-]{36}\.pdf"$/);
    expect(texts(file)).toEqual(['Page 1', 'Page 2', 'Page 3']);
    const named = await api.gotenberg('/forms/libreoffice/convert', {}, [await docx('page_1.docx')], {
      authorization: api.basic,
      'gotenberg-output-filename': 'foo',
    });
    expect(named.headers['content-disposition']).toBe('attachment; filename="foo.pdf"');
  });

  it('200: two files answer a zip of "<name>.pdf"; merge=true answers one PDF in name order', async () => {
    const zip = unzip(
      ok(
        await api.gotenberg('/forms/libreoffice/convert', {}, [await docx('page_2.docx'), await docx('page_1.docx')]),
        'application/zip',
      ),
    );
    expect(zip.names).toEqual(['page_1.docx.pdf', 'page_2.docx.pdf']);
    expect(zip.paths.map((p) => texts(p))).toEqual([['Page 1'], ['Page 2']]);
    const merged = saveBody(
      ok(
        await api.gotenberg('/forms/libreoffice/convert', { merge: 'true' }, [
          await docx('page_2.docx'),
          await docx('page_1.docx'),
        ]),
        'application/pdf',
      ),
    );
    expect(texts(merged)).toEqual(['Page 1', 'Page 2']);
  });

  it('200: nativePageRanges, pdfa and metadata; splitMode intervals answers "<name>_0.pdf"…', async () => {
    const file = saveBody(
      ok(
        await api.gotenberg(
          '/forms/libreoffice/convert',
          { nativePageRanges: '2-3', pdfa: 'PDF/A-2b', metadata: JSON.stringify({ Title: 'Converted' }) },
          [await docx('pages_3.docx')],
        ),
        'application/pdf',
      ),
    );
    expect(texts(file)).toEqual(['Page 2', 'Page 3']);
    expect(run('pdfinfo', ['-meta', file])).toMatch(/pdfaid:part(>|=['"])2/);
    expect(infoOf(file).Title).toBe('Converted');
    const zip = unzip(
      ok(
        await api.gotenberg('/forms/libreoffice/convert', { splitMode: 'intervals', splitSpan: '2' }, [
          await docx('pages_3.docx'),
        ]),
        'application/zip',
      ),
    );
    expect(zip.names).toEqual(['pages_3.docx_0.pdf', 'pages_3.docx_1.pdf']);
    expect(zip.paths.map((p) => pageCount(p))).toEqual([2, 1]);
  });

  it('200: a protected document with its password; encrypted output with userPassword', async () => {
    const file = saveBody(
      ok(
        await api.gotenberg('/forms/libreoffice/convert', { password: 'foo', userPassword: 'secret' }, [
          await docx('protected_page_1.docx'),
        ]),
        'application/pdf',
      ),
    );
    expect(() => run('pdftotext', [file, '-'])).toThrow();
    expect(pagesText(file, 'secret')[0]).toContain('Page 1');
  });

  it('200: `embeds` are attached to the converted PDF', async () => {
    const res = await api.gotenberg('/forms/libreoffice/convert', {}, [
      await docx('page_1.docx'),
      { field: 'embeds', content: Buffer.from('<source/>'), filename: 'source.xml', contentType: 'text/xml' },
    ]);
    const file = saveBody(ok(res, 'application/pdf'));
    expect(run('pdfdetach', ['-list', file])).toMatch(/1 embedded files\n1: source\.xml/);
  });

  it('400: bad page ranges and unsupported export options are named; an image is not for LibreOffice', async () => {
    const range = await api.gotenberg('/forms/libreoffice/convert', { nativePageRanges: '9' }, [
      await docx('page_1.docx'),
    ]);
    expect(range.statusCode).toBe(400);
    expect(range.headers['content-type']).toBe('text/plain; charset=UTF-8');
    expect(range.body).toBe(
      "LibreOffice could not apply the page ranges '9' to the document 'page_1.docx'. Check the 'nativePageRanges' form field; valid values look like '1-4', '2' or '1,3,5-7'.",
    );
    const quality = await api.gotenberg('/forms/libreoffice/convert', { quality: '101', pageLayout: '7' }, [
      await docx('page_1.docx'),
    ]);
    expect(quality.statusCode).toBe(400);
    expect(quality.body).toContain("form field 'quality' is invalid (got '101'): expected 1 to 100");
    expect(quality.body).toContain("form field 'pageLayout' is invalid (got '7'): expected 0, 1, 2, 3");
    const png = await api.gotenberg('/forms/libreoffice/convert', {}, [
      { content: await testDocument('watermark.png'), filename: 'image.png', contentType: 'image/png' },
    ]);
    expect(png.statusCode).toBe(400);
    expect(png.body).toContain("'image.png' is a PNG file");
  });

  it("200: LibreOffice's export options reach its PDF filter: landscape and a watermark on a text document, viewer settings, one page per sheet", async () => {
    const file = saveBody(
      ok(
        await api.gotenberg(
          '/forms/libreoffice/convert',
          {
            landscape: 'true',
            pageLayout: '1',
            initialView: '1',
            nativeWatermarkText: 'DRAFTMARK',
            // Gotenberg's defaults, as clients that send every field do.
            exportBookmarks: 'true',
            quality: '90',
            updateIndexes: 'true',
          },
          [await docx('page_1.docx')],
        ),
        'application/pdf',
      ),
    );
    const [box] = await pageBoxesOf(file);
    expect(box!.media.width).toBeGreaterThan(box!.media.height);
    expect(texts(file)[0]).toContain('Page 1');
    expect(texts(file)[0]).toContain('DRAFTMARK');
    const doc = await PDFDocument.load(readFileSync(file));
    expect(String(doc.catalog.get(PDFName.of('PageLayout')))).toBe('/SinglePage');
    expect(String(doc.catalog.get(PDFName.of('PageMode')))).toBe('/UseOutlines');

    const sheet = { content: await testDocument('wide-sheet.xlsx'), filename: 'wide.xlsx' };
    const paged = saveBody(ok(await api.gotenberg('/forms/libreoffice/convert', {}, [sheet]), 'application/pdf'));
    expect(pageCount(paged)).toBeGreaterThan(1);
    const single = saveBody(
      ok(await api.gotenberg('/forms/libreoffice/convert', { singlePageSheets: 'true' }, [sheet]), 'application/pdf'),
    );
    expect(pageCount(single)).toBe(1);
  });

  it('metered as /conversion/auto-to-pdf', async () => {
    const trace = `lo-trace-${Date.now()}`;
    const res = await api.gotenberg('/forms/libreoffice/convert', {}, [await docx('page_1.docx')], {
      authorization: api.basic,
      'gotenberg-trace': trace,
    });
    expect(res.statusCode).toBe(200);
    let rows: Array<{ endpoint: string; endpoint_group: string; pages: number }> = [];
    for (let i = 0; i < 40 && rows.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 25));
      await api.t.app.apiKeyGuard.meter.flush();
      rows = await api.t.database.sql.query(
        'select endpoint, endpoint_group, pages from usage_events where request_id = $1',
        [trace],
      );
    }
    expect(rows).toEqual([{ endpoint: '/conversion/auto-to-pdf', endpoint_group: 'conversion', pages: 1 }]);
  });
});
