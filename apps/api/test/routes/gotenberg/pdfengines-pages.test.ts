import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { testDocument } from '../../fixtures/documents';
import { numberedPdf, pageCount, pagesText, rotations, run } from '../../fixtures/pdfs';
import { pdfOf, unzip } from '../../fixtures/results';
import { gotenbergAppForSuite, pdfFile } from './gotenberg-api';

/**
 * /gotenberg/forms/pdfengines/{rotate,watermark,stamp,bookmarks,embed}: requests as Gotenberg 8's documentation writes them (every
 * PDF in `files`, the watermark or stamp image or PDF in its own file field, Basic auth), read back with qpdf and
 * poppler.
 */
const api = gotenbergAppForSuite();

const textError = (res: { statusCode: number; body: string; headers: Record<string, unknown> }) => {
  expect(res.headers['content-type']).toBe('text/plain; charset=UTF-8');
  return { status: res.statusCode, message: res.body };
};
/** The page's text in content-stream order: what is drawn first (beneath) comes first. */
const drawnOrder = (file: string, page: number) =>
  run('pdftotext', ['-raw', '-f', String(page), '-l', String(page), file, '-'])
    .trim()
    .split('\n');
const imagesOn = (file: string) =>
  run('pdfimages', ['-list', file])
    .split('\n')
    .slice(2)
    .filter(Boolean)
    .map((l) => Number(l.trim().split(/\s+/)[0]));
/** The pages that show an image (an image and its soft mask are listed apart). */
const pagesWithImages = (file: string) => [...new Set(imagesOn(file))];

describe('POST /forms/pdfengines/rotate', () => {
  it('200: rotateAngle 90 on rotatePages "2-end"; the file keeps its name, the other pages their rotation', async () => {
    const res = await api.gotenberg('/forms/pdfengines/rotate', { rotateAngle: '90', rotatePages: '2-end' }, [
      pdfFile(await numberedPdf(3, 'Rot'), 'report.pdf'),
    ]);
    const file = pdfOf(res);
    expect(res.headers['content-disposition']).toBe('attachment; filename="report.pdf"');
    expect(rotations(file)).toEqual([0, 90, 90]);
    expect(pagesText(file)[0]).toContain('Rot Page 1');
  });

  it('200: every page when rotatePages is empty; two PDFs answer a zip of their names', async () => {
    const res = await api.gotenberg('/forms/pdfengines/rotate', { rotateAngle: '180' }, [
      pdfFile(await numberedPdf(2, 'A'), 'a.pdf'),
      pdfFile(await numberedPdf(1, 'B'), 'b.pdf'),
    ]);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toBe('application/zip');
    const zip = unzip(res.rawPayload);
    expect(zip.names.sort()).toEqual(['a.pdf', 'b.pdf']);
    expect(zip.paths.map(rotations).sort()).toEqual([[180], [180, 180]]);
  });

  it('200: pdfcpu selections: "odd", "!2", "-2"', async () => {
    const five = pdfFile(await numberedPdf(5, 'Sel'), 'five.pdf');
    const rotated = async (rotatePages: string) =>
      rotations(pdfOf(await api.gotenberg('/forms/pdfengines/rotate', { rotateAngle: '270', rotatePages }, [five])));
    expect(await rotated('odd')).toEqual([270, 0, 270, 0, 270]);
    expect(await rotated('!2')).toEqual([270, 0, 270, 270, 270]);
    expect(await rotated('-2')).toEqual([270, 270, 0, 0, 0]);
  });

  it('400: rotateAngle is required and must be 90, 180 or 270; a bad selection is named', async () => {
    const one = pdfFile(await numberedPdf(1), 'a.pdf');
    expect(textError(await api.gotenberg('/forms/pdfengines/rotate', {}, [one]))).toEqual({
      status: 400,
      message: "Invalid form data: form field 'rotateAngle' is required",
    });
    expect(textError(await api.gotenberg('/forms/pdfengines/rotate', { rotateAngle: '45' }, [one]))).toEqual({
      status: 400,
      message:
        "Invalid form data: form field 'rotateAngle' is invalid (got '45', resulting to wrong value, expected 90, 180, or 270)",
    });
    const pages = textError(
      await api.gotenberg('/forms/pdfengines/rotate', { rotateAngle: '90', rotatePages: '3-1' }, [one]),
    );
    expect(pages).toMatchObject({
      status: 400,
      message: expect.stringContaining("form field 'rotatePages' is invalid"),
    });
  });
});

describe('POST /forms/pdfengines/watermark and /stamp', () => {
  it('200: a text watermark is drawn beneath the content, a text stamp over it, on the pages asked', async () => {
    const doc = pdfFile(await numberedPdf(3, 'Marked'), 'contract.pdf');
    const watermarked = pdfOf(
      await api.gotenberg(
        '/forms/pdfengines/watermark',
        {
          watermarkSource: 'text',
          watermarkExpression: 'CONFIDENTIAL',
          watermarkPages: '1-2',
          watermarkOptions: JSON.stringify({ opacity: '0.25', rotation: '0', color: '#ff0000', points: '40' }),
        },
        [doc],
      ),
    );
    expect(pageCount(watermarked)).toBe(3);
    expect(drawnOrder(watermarked, 1)[0]).toBe('CONFIDENTIAL');
    expect(drawnOrder(watermarked, 2)[0]).toBe('CONFIDENTIAL');
    expect(pagesText(watermarked)[2]).not.toContain('CONFIDENTIAL');

    const stamped = pdfOf(
      await api.gotenberg(
        '/forms/pdfengines/stamp',
        { stampSource: 'text', stampExpression: 'APPROVED', stampOptions: '{"rotation":"0","position":"bc"}' },
        [doc],
      ),
    );
    for (const page of [1, 2, 3]) {
      const order = drawnOrder(stamped, page);
      expect(order[0]).toBe(`Marked Page ${page}`);
      expect(order.at(-1)).toBe('APPROVED');
    }
  });

  it('200: an image watermark from the `watermark` file field; a PDF stamp from the `stamp` file field', async () => {
    const doc = pdfFile(await numberedPdf(2, 'Img'), 'doc.pdf');
    const image = { field: 'watermark', content: await testDocument('watermark.png'), filename: 'logo.png' };
    const withImage = pdfOf(
      await api.gotenberg(
        '/forms/pdfengines/watermark',
        {
          watermarkSource: 'image',
          watermarkExpression: 'logo.png',
          watermarkPages: '2',
          watermarkOptions: '{"scale":"0.3","opacity":"0.5"}',
        },
        [doc, { ...image, contentType: 'image/png' }],
      ),
    );
    expect(pageCount(withImage)).toBe(2);
    expect(pagesWithImages(withImage)).toEqual([2]);

    const seal = { field: 'stamp', content: await numberedPdf(1, 'Seal'), filename: 'seal.pdf' };
    const withPdf = pdfOf(
      await api.gotenberg(
        '/forms/pdfengines/stamp',
        { stampSource: 'pdf', stampExpression: 'seal.pdf', stampOptions: '{"scale":"0.5","rotation":"0"}' },
        [doc, seal],
      ),
    );
    expect(pageCount(withPdf)).toBe(2);
    const order = drawnOrder(withPdf, 2);
    expect(order[0]).toBe('Img Page 2');
    expect(order.indexOf('Seal Page 1')).toBeGreaterThan(0);
  });

  it('400: the source is required and checked; image needs its file; options DocFlow cannot draw are named', async () => {
    const one = pdfFile(await numberedPdf(1), 'a.pdf');
    expect(textError(await api.gotenberg('/forms/pdfengines/watermark', {}, [one]))).toEqual({
      status: 400,
      message: "Invalid form data: form field 'watermarkSource' is required",
    });
    expect(textError(await api.gotenberg('/forms/pdfengines/stamp', { stampSource: 'svg' }, [one]))).toEqual({
      status: 400,
      message:
        "Invalid form data: form field 'stampSource' is invalid (got 'svg', resulting to wrong value, expected either 'text', 'image' or 'pdf')",
    });
    expect(textError(await api.gotenberg('/forms/pdfengines/stamp', { stampSource: 'image' }, [one]))).toEqual({
      status: 400,
      message: 'Invalid form data: a stamp file is required for image or pdf source',
    });
    const opts = textError(
      await api.gotenberg(
        '/forms/pdfengines/watermark',
        { watermarkSource: 'text', watermarkExpression: 'X', watermarkOptions: '{"border":"5","opacity":"2"}' },
        [one],
      ),
    );
    expect(opts.status).toBe(400);
    expect(opts.message).toContain(
      "form field 'watermarkOptions' has the option 'border', which DocFlow does not draw",
    );
    expect(opts.message).toContain("form field 'watermarkOptions' has an invalid 'opacity' (got '2')");
  });

  it('metered as /pdf/watermark in the `pdf` group, one call per PDF', async () => {
    const trace = `stamp-${Date.now()}`;
    const res = await api.gotenberg(
      '/forms/pdfengines/stamp',
      { stampSource: 'text', stampExpression: 'N' },
      [pdfFile(await numberedPdf(1, 'N1'), 'n1.pdf'), pdfFile(await numberedPdf(1, 'N2'), 'n2.pdf')],
      { authorization: api.basic, 'gotenberg-trace': trace },
    );
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(unzip(res.rawPayload).names.sort()).toEqual(['n1.pdf', 'n2.pdf']);
    // The usage events are recorded once the streamed answer is done (onResponse), a moment after inject resolves.
    let rows: Array<{ endpoint: string; endpoint_group: string }> = [];
    for (let i = 0; i < 40 && rows.length < 2; i++) {
      await new Promise((r) => setTimeout(r, 25));
      await api.t.app.apiKeyGuard.meter.flush();
      rows = await api.t.database.sql.query('select endpoint, endpoint_group from usage_events where request_id = $1', [
        trace,
      ]);
    }
    expect(rows).toEqual([
      { endpoint: '/pdf/watermark', endpoint_group: 'pdf' },
      { endpoint: '/pdf/watermark', endpoint_group: 'pdf' },
    ]);
  });
});

describe('POST /forms/pdfengines/bookmarks/{write,read}', () => {
  const outline = [
    { title: 'Introduction', page: 1 },
    { title: 'Body', page: 2, children: [{ title: 'Details', page: 3 }] },
  ];

  it('200: written with a list, then read back by file name; qpdf reads the same outline', async () => {
    const written = pdfOf(
      await api.gotenberg('/forms/pdfengines/bookmarks/write', { bookmarks: JSON.stringify(outline) }, [
        pdfFile(await numberedPdf(3, 'Book'), 'book.pdf'),
      ]),
    );
    expect(pageCount(written)).toBe(3);
    const qpdf = JSON.parse(run('qpdf', ['--json', '--json-key=outlines', written])).outlines;
    expect(qpdf.map((o: { title: string; destpageposfrom1: number }) => [o.title, o.destpageposfrom1])).toEqual([
      ['Introduction', 1],
      ['Body', 2],
    ]);
    expect(qpdf[1].kids[0]).toMatchObject({ title: 'Details', destpageposfrom1: 3 });

    const res = await api.gotenberg('/forms/pdfengines/bookmarks/read', {}, [
      pdfFile(readFileSync(written), 'book.pdf'),
      pdfFile(await numberedPdf(1, 'Plain'), 'plain.pdf'),
    ]);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({ 'book.pdf': outline, 'plain.pdf': [] });
  });

  it('200: an object by file name writes only the PDFs it names', async () => {
    const res = await api.gotenberg(
      '/forms/pdfengines/bookmarks/write',
      { bookmarks: JSON.stringify({ 'b.pdf': [{ title: 'Only B', page: 2 }] }) },
      [pdfFile(await numberedPdf(2, 'A'), 'a.pdf'), pdfFile(await numberedPdf(2, 'B'), 'b.pdf')],
    );
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const zip = unzip(res.rawPayload);
    const outlineOf = (name: string) =>
      JSON.parse(run('qpdf', ['--json', '--json-key=outlines', zip.paths[zip.names.indexOf(name)]!])).outlines;
    expect(outlineOf('a.pdf')).toEqual([]);
    expect(outlineOf('b.pdf')).toMatchObject([{ title: 'Only B', destpageposfrom1: 2 }]);
  });

  it('400: bookmarks is required, must be JSON of bookmarks, and its pages must be in the document', async () => {
    const two = pdfFile(await numberedPdf(2), 'a.pdf');
    expect(textError(await api.gotenberg('/forms/pdfengines/bookmarks/write', {}, [two]))).toEqual({
      status: 400,
      message: "Invalid form data: form field 'bookmarks' is required",
    });
    const bad = textError(await api.gotenberg('/forms/pdfengines/bookmarks/write', { bookmarks: '{"a":1}' }, [two]));
    expect(bad).toMatchObject({ status: 400, message: expect.stringContaining("form field 'bookmarks' is invalid") });
    const page = textError(
      await api.gotenberg('/forms/pdfengines/bookmarks/write', { bookmarks: '[{"title":"Far","page":9}]' }, [two]),
    );
    expect(page.status).toBe(400);
    expect(page.message).toBe(
      "Invalid form data: form field 'bookmarks' is invalid: the bookmark 'Far' opens page 9, but the document has pages 1 to 2",
    );
  });
});

describe('POST /forms/pdfengines/merge: bookmarks, autoIndexBookmarks, titleBookmarks', () => {
  const readOutline = async (file: string) => {
    const res = await api.gotenberg('/forms/pdfengines/bookmarks/read', {}, [pdfFile(readFileSync(file), 'm.pdf')]);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    return (res.json() as Record<string, unknown>)['m.pdf'];
  };
  /** A PDF of `pages` pages with `outline` written by the bookmarks route, and `title` by the metadata one. */
  const outlined = async (pages: number, label: string, outline: object[], title?: string) => {
    let file = pdfOf(
      await api.gotenberg('/forms/pdfengines/bookmarks/write', { bookmarks: JSON.stringify(outline) }, [
        pdfFile(await numberedPdf(pages, label), `${label}.pdf`),
      ]),
    );
    if (title)
      file = pdfOf(
        await api.gotenberg('/forms/pdfengines/metadata/write', { metadata: JSON.stringify({ Title: title }) }, [
          pdfFile(readFileSync(file), `${label}.pdf`),
        ]),
      );
    return readFileSync(file);
  };

  it('200: a list is the merged outline as given', async () => {
    const outline = [
      { title: 'A', page: 1 },
      { title: 'B', page: 3, children: [{ title: 'B end', page: 4 }] },
    ];
    const file = pdfOf(
      await api.gotenberg('/forms/pdfengines/merge', { bookmarks: JSON.stringify(outline) }, [
        pdfFile(await numberedPdf(2, 'A'), '1_a.pdf'),
        pdfFile(await numberedPdf(2, 'B'), '2_b.pdf'),
      ]),
    );
    expect(pageCount(file)).toBe(4);
    expect(await readOutline(file)).toEqual(outline);
  });

  it("200: autoIndexBookmarks keeps each file's outline at its pages; lists by file name win for the files they name", async () => {
    const a = await outlined(2, 'alpha', [{ title: 'Alpha 2', page: 2 }]);
    const b = await outlined(3, 'beta', [{ title: 'Beta 1', page: 1, children: [{ title: 'Beta 3', page: 3 }] }]);
    const auto = pdfOf(
      await api.gotenberg('/forms/pdfengines/merge', { autoIndexBookmarks: 'true' }, [
        pdfFile(a, '1_alpha.pdf'),
        pdfFile(b, '2_beta.pdf'),
      ]),
    );
    expect(await readOutline(auto)).toEqual([
      { title: 'Alpha 2', page: 2 },
      { title: 'Beta 1', page: 3, children: [{ title: 'Beta 3', page: 5 }] },
    ]);
    const byName = pdfOf(
      await api.gotenberg(
        '/forms/pdfengines/merge',
        { autoIndexBookmarks: 'true', bookmarks: JSON.stringify({ '2_beta.pdf': [{ title: 'Given', page: 2 }] }) },
        [pdfFile(a, '1_alpha.pdf'), pdfFile(b, '2_beta.pdf')],
      ),
    );
    expect(await readOutline(byName)).toEqual([
      { title: 'Alpha 2', page: 2 },
      { title: 'Given', page: 4 },
    ]);
  });

  it('200: titleBookmarks: one entry per file (its Title, else its name), its outline beneath', async () => {
    const a = await outlined(2, 'alpha', [{ title: 'Alpha 2', page: 2 }], 'The Alpha Report');
    const untitled = pdfOf(
      await api.gotenberg('/forms/pdfengines/metadata/write', { metadata: JSON.stringify({ Title: null }) }, [
        pdfFile(await numberedPdf(1, 'Plain'), 'plain.pdf'),
      ]),
    );
    const file = pdfOf(
      await api.gotenberg('/forms/pdfengines/merge', { titleBookmarks: 'true' }, [
        pdfFile(a, '1_alpha.pdf'),
        pdfFile(readFileSync(untitled), '2_plain.pdf'),
      ]),
    );
    expect(await readOutline(file)).toEqual([
      { title: 'The Alpha Report', page: 1, children: [{ title: 'Alpha 2', page: 2 }] },
      { title: '2_plain', page: 3 },
    ]);
  });

  it('400: a merged page that does not exist is named under bookmarks', async () => {
    const res = await api.gotenberg('/forms/pdfengines/merge', { bookmarks: '[{"title":"Far","page":4}]' }, [
      pdfFile(await numberedPdf(1), '1.pdf'),
      pdfFile(await numberedPdf(2), '2.pdf'),
    ]);
    expect(textError(res)).toEqual({
      status: 400,
      message:
        "Invalid form data: form field 'bookmarks' is invalid: the bookmark 'Far' opens page 4, but the document has pages 1 to 3",
    });
  });
});

describe('POST /forms/pdfengines/embed', () => {
  it('200: the `embeds` files are attached under their names, with the MIME type asked', async () => {
    const res = await api.gotenberg(
      '/forms/pdfengines/embed',
      { embedsMetadata: JSON.stringify({ 'invoice.xml': { mimeType: 'text/xml' } }) },
      [
        pdfFile(await numberedPdf(2, 'Inv'), 'invoice.pdf'),
        {
          field: 'embeds',
          content: Buffer.from('<Invoice id="42"/>'),
          filename: 'invoice.xml',
          contentType: 'text/xml',
        },
        { field: 'embeds', content: Buffer.from('a,b\n1,2\n'), filename: 'data.csv', contentType: 'text/csv' },
      ],
    );
    const file = pdfOf(res);
    expect(res.headers['content-disposition']).toBe('attachment; filename="invoice.pdf"');
    expect(pageCount(file)).toBe(2);
    const listed = run('pdfdetach', ['-list', file]);
    expect(listed).toMatch(/2 embedded files/);
    expect(listed).toContain('invoice.xml');
    expect(listed).toContain('data.csv');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'embeds-'));
    run('pdfdetach', ['-saveall', '-o', dir, file]);
    expect(readFileSync(path.join(dir, 'invoice.xml'), 'utf8')).toBe('<Invoice id="42"/>');
    expect(run('qpdf', ['--list-attachments', '--verbose', file])).toMatch(/text\/xml/);
  });

  it('200: `embeds` on merge attaches to the merged PDF, on split to every part', async () => {
    const csv = { field: 'embeds', content: Buffer.from('a,b\n1,2\n'), filename: 'data.csv', contentType: 'text/csv' };
    const merged = pdfOf(
      await api.gotenberg(
        '/forms/pdfengines/merge',
        { embedsMetadata: JSON.stringify({ 'data.csv': { mimeType: 'text/csv' } }) },
        [pdfFile(await numberedPdf(1, 'A'), '1.pdf'), pdfFile(await numberedPdf(1, 'B'), '2.pdf'), csv],
      ),
    );
    expect(pageCount(merged)).toBe(2);
    expect(run('pdfdetach', ['-list', merged])).toMatch(/1 embedded files\n1: data\.csv/);
    expect(run('qpdf', ['--list-attachments', '--verbose', merged])).toMatch(/text\/csv/);

    const split = await api.gotenberg('/forms/pdfengines/split', { splitMode: 'intervals', splitSpan: '1' }, [
      pdfFile(await numberedPdf(2, 'S'), 'two.pdf'),
      csv,
    ]);
    expect(split.statusCode, split.body.slice(0, 300)).toBe(200);
    const zip = unzip(split.rawPayload);
    expect(zip.names).toEqual(['two_0.pdf', 'two_1.pdf']);
    for (const part of zip.paths) expect(run('pdfdetach', ['-list', part])).toContain('data.csv');
  });

  it("400: `embeds` with a PDF/A part other than 3, in Gotenberg's words; PDF/A-3b takes them", async () => {
    const csv = { field: 'embeds', content: Buffer.from('x'), filename: 'data.csv', contentType: 'text/csv' };
    const res = await api.gotenberg('/forms/pdfengines/merge', { pdfa: 'PDF/A-2b' }, [
      pdfFile(await numberedPdf(1), '1.pdf'),
      csv,
    ]);
    expect(textError(res)).toEqual({
      status: 400,
      message:
        "Invalid form data: PDF format 'PDF/A-2b' does not support embedded files; only PDF/A-3 variants allow attachments",
    });
    const a3 = pdfOf(
      await api.gotenberg('/forms/pdfengines/merge', { pdfa: 'PDF/A-3b' }, [
        pdfFile(await numberedPdf(1), '1.pdf'),
        csv,
      ]),
    );
    expect(run('pdfdetach', ['-list', a3])).toContain('data.csv');
    expect(run('pdfinfo', ['-meta', a3])).toMatch(/pdfaid:part(>|=['"])3/);
  });

  it('400: a relationship outside the five of PDF, metadata for a file not sent', async () => {
    const res = await api.gotenberg(
      '/forms/pdfengines/embed',
      { embedsMetadata: JSON.stringify({ 'x.xml': { mimeType: 'text/xml', relationship: 'Sibling' } }) },
      [pdfFile(await numberedPdf(1), 'a.pdf')],
    );
    const e = textError(res);
    expect(e.status).toBe(400);
    expect(e.message).toContain(
      'has the relationship "Sibling" for \'x.xml\' (valid: Source, Data, Alternative, Supplement, Unspecified)',
    );
    expect(e.message).toContain("names 'x.xml', which is not among the 'embeds' files");
  });
});
