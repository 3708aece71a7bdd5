import { readFileSync, statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { testDocument } from '../../fixtures/documents';
import { ciiInvoice, taggedPdf } from '../../fixtures/e-invoices';
import { infoOf, xmpOf, xmpProperties } from '../../fixtures/metadata-pdfs';
import { numberedPdf, pageCount, pagesText, run } from '../../fixtures/pdfs';
import { saveBody } from '../../fixtures/results';
import { gotenbergAppForSuite, pdfFile } from './gotenberg-api';

/**
 * Gotenberg 8.36's document routes and fields as its documentation writes the calls: /forms/pdfengines/optimize,
 * /forms/pdfengines/factur-x, the whole `metadata` key set, `pdfua`; each answer read back with qpdf and poppler.
 */
const api = gotenbergAppForSuite();

type Res = { statusCode: number; rawPayload: Buffer; body: string; headers: Record<string, unknown> };
const pdfOf = (res: Res) => {
  expect(res.statusCode, res.body.slice(0, 400)).toBe(200);
  expect(res.headers['content-type']).toBe('application/pdf');
  return saveBody(res.rawPayload);
};
const textError = (res: Res) => {
  expect(res.headers['content-type']).toBe('text/plain; charset=UTF-8');
  return { status: res.statusCode, message: res.body };
};
const xmlFile = (number: string) => ({
  field: 'facturxXml',
  content: ciiInvoice(number),
  filename: 'invoice.xml',
  contentType: 'text/xml',
});

/** The catalog and the file specs of its /AF, from qpdf's JSON. */
function attachmentsOf(file: string) {
  const json = JSON.parse(run('qpdf', ['--json', '--json-key=qpdf', file])) as {
    qpdf: [unknown, Record<string, { value?: Record<string, unknown> }>];
  };
  const objects = json.qpdf[1];
  const catalog = Object.values(objects).find((o) => o.value?.['/Type'] === '/Catalog')!.value!;
  const af = (catalog['/AF'] as string[] | undefined) ?? [];
  return { catalog, af: af.map((ref) => objects[`obj:${ref}`]!.value!) };
}

describe('POST /forms/pdfengines/optimize', () => {
  it('200: imageQuality re-encodes the images; text and pages untouched', async () => {
    const heavy = await testDocument('image-heavy.pdf');
    const res = await api.gotenberg('/forms/pdfengines/optimize', { imageQuality: '40' }, [
      pdfFile(heavy, 'photo.pdf'),
    ]);
    const file = pdfOf(res);
    expect(statSync(file).size).toBeLessThan(statSync(heavy).size / 2);
    expect(pageCount(file)).toBe(1);
  });

  it('200: several files answer a zip; the default quality (80) still shrinks the images', async () => {
    const heavy = await testDocument('image-heavy.pdf');
    const one = await api.gotenberg('/forms/pdfengines/optimize', {}, [pdfFile(heavy, 'photo.pdf')]);
    expect(statSync(pdfOf(one)).size).toBeLessThan(statSync(heavy).size);
    const two = await api.gotenberg('/forms/pdfengines/optimize', {}, [
      pdfFile(heavy, 'a.pdf'),
      pdfFile(await numberedPdf(2, 'Text'), 'b.pdf'),
    ]);
    expect(two.statusCode).toBe(200);
    expect(two.headers['content-type']).toBe('application/zip');
  });

  it("400: imageQuality out of 1-100 is Gotenberg's 'Invalid form data'", async () => {
    const res = await api.gotenberg('/forms/pdfengines/optimize', { imageQuality: '101' }, [
      pdfFile(await numberedPdf(1), 'a.pdf'),
    ]);
    expect(textError(res)).toEqual({
      status: 400,
      message:
        "Invalid form data: form field 'imageQuality' is invalid (got '101', resulting to value is superior to 100)",
    });
  });

  it('200: optimizeImages on merge shrinks the merged images', async () => {
    const heavy = await testDocument('image-heavy.pdf');
    const res = await api.gotenberg('/forms/pdfengines/merge', { optimizeImages: 'true', imageQuality: '30' }, [
      pdfFile(heavy, '1.pdf'),
      pdfFile(await numberedPdf(1, 'Two'), '2.pdf'),
    ]);
    const file = pdfOf(res);
    expect(pageCount(file)).toBe(2);
    expect(statSync(file).size).toBeLessThan(statSync(heavy).size / 2);
  });
});

describe('POST /forms/pdfengines/embed with relationships', () => {
  it('200: a file with its AFRelationship is listed in /AF with it; one without it, as Unspecified', async () => {
    const res = await api.gotenberg(
      '/forms/pdfengines/embed',
      { embedsMetadata: JSON.stringify({ 'source.csv': { mimeType: 'text/csv', relationship: 'Source' } }) },
      [
        pdfFile(await numberedPdf(2, 'Report'), 'report.pdf'),
        { field: 'embeds', content: Buffer.from('a,b\n1,2\n'), filename: 'source.csv', contentType: 'text/csv' },
        { field: 'embeds', content: Buffer.from('notes'), filename: 'notes.txt', contentType: 'text/plain' },
      ],
    );
    const file = pdfOf(res);
    expect(pageCount(file)).toBe(2);
    const listed = run('pdfdetach', ['-list', file]);
    expect(listed).toContain('source.csv');
    expect(listed).toContain('notes.txt');
    const { af } = attachmentsOf(file);
    const relationships = Object.fromEntries(
      af.map((spec) => [String(spec['/UF'] ?? spec['/F']), spec['/AFRelationship'] ?? 'none']),
    );
    expect(Object.values(relationships)).toContain('/Source');
    for (const [name, r] of Object.entries(relationships))
      if (r !== '/Source') expect([name, r]).toEqual([name, '/Unspecified']);
    const saved = `${file}.source.csv`;
    // By its number in the list: pdf-lib writes the names as UTF-16, which -savefile does not match.
    const number = /^(\d+): source\.csv$/m.exec(listed)![1]!;
    run('pdfdetach', ['-save', number, '-o', saved, file]);
    expect(readFileSync(saved, 'utf8')).toBe('a,b\n1,2\n');
  });
});

describe('POST /forms/pdfengines/factur-x', () => {
  it('200: PDF/A-3b, factur-x.xml embedded as Alternative and listed in /AF, the fx XMP and its extension schema', async () => {
    const res = await api.gotenberg('/forms/pdfengines/factur-x', { facturxConformanceLevel: 'EN 16931' }, [
      pdfFile(await numberedPdf(1, 'Invoice'), 'invoice.pdf'),
      xmlFile('F-2026-001'),
    ]);
    const file = pdfOf(res);
    expect(pagesText(file)[0]).toContain('Invoice Page 1');
    expect(run('qpdf', ['--list-attachments', file])).toMatch(/^factur-x\.xml ->/m);
    expect(run('qpdf', ['--show-attachment=factur-x.xml', file])).toContain('<ram:ID>F-2026-001</ram:ID>');
    const { af } = attachmentsOf(file);
    expect(af).toHaveLength(1);
    expect(af[0]).toMatchObject({ '/AFRelationship': '/Alternative', '/Type': '/Filespec' });
    const xmp = xmpOf(file);
    const props = xmpProperties(xmp);
    const fx = 'urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#';
    expect(props['pdfaid:part']).toEqual(['3']);
    expect(props[`${fx}:ConformanceLevel`]).toEqual(['EN 16931']);
    expect(props[`${fx}:DocumentType`]).toEqual(['INVOICE']);
    expect(props[`${fx}:DocumentFileName`]).toEqual(['factur-x.xml']);
    expect(props[`${fx}:Version`]).toEqual(['1.0']);
    expect(xmp).toMatch(
      /<pdfaSchema:namespaceURI>urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#<\/pdfaSchema:namespaceURI>/,
    );
    expect(xmp).toContain('<pdfaSchema:prefix>fx</pdfaSchema:prefix>');
  });

  it('200: facturxDocumentType and facturxVersion are declared as given', async () => {
    const res = await api.gotenberg(
      '/forms/pdfengines/factur-x',
      { facturxConformanceLevel: 'BASIC WL', facturxDocumentType: 'ORDER', facturxVersion: '1.07' },
      [pdfFile(await numberedPdf(1, 'Order'), 'order.pdf'), xmlFile('O-1')],
    );
    const props = xmpProperties(xmpOf(pdfOf(res)));
    const fx = 'urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#';
    expect(props[`${fx}:ConformanceLevel`]).toEqual(['BASIC WL']);
    expect(props[`${fx}:DocumentType`]).toEqual(['ORDER']);
    expect(props[`${fx}:Version`]).toEqual(['1.07']);
  });

  it("400: Gotenberg's answers for a half-given, unknown or non-PDF/A-3 request", async () => {
    const pdf = pdfFile(await numberedPdf(1), 'a.pdf');
    const both = textError(await api.gotenberg('/forms/pdfengines/factur-x', {}, [pdf]));
    expect(both).toEqual({
      status: 400,
      message: "Invalid form data: 'facturxConformanceLevel' and 'facturxXml' are both required",
    });
    const level = textError(
      await api.gotenberg('/forms/pdfengines/factur-x', { facturxConformanceLevel: 'GOLD' }, [pdf, xmlFile('1')]),
    );
    expect(level.status).toBe(400);
    expect(level.message).toContain(
      "form field 'facturxConformanceLevel' is invalid (got 'GOLD', resulting to unsupported conformance level 'GOLD')",
    );
    const part = textError(
      await api.gotenberg('/forms/pdfengines/factur-x', { facturxConformanceLevel: 'BASIC', pdfa: 'PDF/A-2b' }, [
        pdf,
        xmlFile('1'),
      ]),
    );
    expect(part).toEqual({
      status: 400,
      message:
        "Invalid form data: Factur-X requires a PDF/A-3 variant (PDF/A-3a, PDF/A-3b, or PDF/A-3u), got 'PDF/A-2b'",
    });
    const noXml = textError(
      await api.gotenberg('/forms/pdfengines/merge', { facturxConformanceLevel: 'BASIC' }, [pdf]),
    );
    expect(noXml).toEqual({
      status: 400,
      message: "Invalid form data: 'facturxXml' file is required when 'facturxConformanceLevel' is set",
    });
  });

  it('200: the Factur-X fields on merge make the merged PDF the invoice', async () => {
    const res = await api.gotenberg('/forms/pdfengines/merge', { facturxConformanceLevel: 'MINIMUM' }, [
      pdfFile(await numberedPdf(1, 'A'), '1.pdf'),
      pdfFile(await numberedPdf(1, 'B'), '2.pdf'),
      xmlFile('M-9'),
    ]);
    const file = pdfOf(res);
    expect(pageCount(file)).toBe(2);
    expect(run('qpdf', ['--show-attachment=factur-x.xml', file])).toContain('<ram:ID>M-9</ram:ID>');
    expect(xmpProperties(xmpOf(file))['pdfaid:part']).toEqual(['3']);
  });
});

describe('Factur-X beside a Chromium conversion', () => {
  const indexHtml = (body: string) => ({
    content: Buffer.from(`<!doctype html><html><body>${body}</body></html>`),
    filename: 'index.html',
    contentType: 'text/html',
  });

  it('200: HTML to PDF with facturxXml: the XML attached as factur-x.xml (Alternative, in /AF), PDF/A-3b', async () => {
    const res = await api.gotenberg('/forms/chromium/convert/html', { facturxConformanceLevel: 'BASIC' }, [
      indexHtml('<h1>Invoice H-7</h1>'),
      xmlFile('H-7'),
    ]);
    const file = pdfOf(res);
    expect(pagesText(file)[0]).toContain('Invoice H-7');
    expect(run('qpdf', ['--show-attachment=factur-x.xml', file])).toContain('<ram:ID>H-7</ram:ID>');
    const { af } = attachmentsOf(file);
    expect(af).toHaveLength(1);
    expect(af[0]).toMatchObject({ '/AFRelationship': '/Alternative', '/Type': '/Filespec' });
    const props = xmpProperties(xmpOf(file));
    expect(props['pdfaid:part']).toEqual(['3']);
    expect(props['pdfaid:conformance']).toEqual(['B']);
    expect(props['urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#:ConformanceLevel']).toEqual(['BASIC']);
  });

  it("400: Gotenberg's pairing answers on the Chromium routes too", async () => {
    const noLevel = textError(
      await api.gotenberg('/forms/chromium/convert/html', {}, [indexHtml('<p>x</p>'), xmlFile('1')]),
    );
    expect(noLevel).toEqual({
      status: 400,
      message: "Invalid form data: 'facturxConformanceLevel' is required when 'facturxXml' is provided",
    });
    const notA3 = textError(
      await api.gotenberg('/forms/chromium/convert/html', { facturxConformanceLevel: 'BASIC', pdfa: 'PDF/A-1b' }, [
        indexHtml('<p>x</p>'),
        xmlFile('1'),
      ]),
    );
    expect(notA3).toEqual({
      status: 400,
      message:
        "Invalid form data: Factur-X requires a PDF/A-3 variant (PDF/A-3a, PDF/A-3b, or PDF/A-3u), got 'PDF/A-1b'",
    });
  });
});

describe('metadata: the whole key set Gotenberg writes', () => {
  const metadata = {
    Author: 'Ada Lovelace',
    Copyright: '© 2026 DocFlow',
    CreationDate: '2026-01-02T03:04:05Z',
    Creator: 'Analytical Engine',
    Keywords: ['notes', 'engine'],
    Marked: true,
    ModDate: '2026:02:03 04:05:06+00:00',
    PDFVersion: 1.7,
    Producer: 'DocFlow',
    Subject: 'Note G',
    Title: 'Sketch of the Analytical Engine',
    Trapped: 'Unknown',
  };

  it('200 on metadata/write: Info entries, and Copyright, Marked, Trapped in XMP', async () => {
    const res = await api.gotenberg('/forms/pdfengines/metadata/write', { metadata: JSON.stringify(metadata) }, [
      pdfFile(await numberedPdf(1, 'Meta'), 'meta.pdf'),
    ]);
    const file = pdfOf(res);
    expect(infoOf(file)).toMatchObject({
      Title: metadata.Title,
      Author: metadata.Author,
      Subject: metadata.Subject,
      Keywords: 'notes, engine',
      Creator: metadata.Creator,
      Producer: metadata.Producer,
    });
    const props = xmpProperties(xmpOf(file));
    expect(props['dc:rights']).toEqual([['© 2026 DocFlow']]);
    expect(props['http://ns.adobe.com/xap/1.0/rights/:Marked']).toEqual(['True']);
    expect(props['pdf:Trapped']).toEqual(['Unknown']);
    expect(props['dc:title']).toEqual([[metadata.Title]]);
    expect(props['xmp:CreateDate']).toEqual(['2026-01-02T03:04:05Z']);
    expect(props['xmp:ModifyDate']).toEqual(['2026-02-03T04:05:06Z']);
    // Trapped lives in XMP only, as Gotenberg writes it (an ExifTool Info /Trapped breaks stricter readers).
    expect(run('qpdf', ['--json', '--json-key=qpdf', file])).not.toContain('/Trapped');
  });

  it('200: the same keys on merge, split and convert/libreoffice routes', async () => {
    const fields = { metadata: JSON.stringify({ Copyright: 'CC-BY', Marked: false, Trapped: 'True', Title: 'M' }) };
    const merged = pdfOf(
      await api.gotenberg('/forms/pdfengines/merge', fields, [pdfFile(await numberedPdf(1), '1.pdf')]),
    );
    const office = pdfOf(
      await api.gotenberg('/forms/libreoffice/convert', fields, [
        pdfFile(await testDocument('page_1.docx'), 'page_1.docx'),
      ]),
    );
    for (const file of [merged, office]) {
      const props = xmpProperties(xmpOf(file));
      expect(props['dc:rights']).toEqual([['CC-BY']]);
      expect(props['http://ns.adobe.com/xap/1.0/rights/:Marked']).toEqual(['False']);
      expect(props['pdf:Trapped']).toEqual(['True']);
      expect(infoOf(file).Title).toBe('M');
    }
  });

  it('400: a wrong Trapped or Marked value, and an unknown key, are named', async () => {
    const res = await api.gotenberg(
      '/forms/pdfengines/metadata/write',
      { metadata: JSON.stringify({ Trapped: 'Maybe', Marked: 'perhaps', Colour: 'red' }) },
      [pdfFile(await numberedPdf(1), 'a.pdf')],
    );
    const e = textError(res);
    expect(e.status).toBe(400);
    expect(e.message).toContain("'Trapped'");
    expect(e.message).toContain("'Marked'");
    expect(e.message).toContain("'Colour'");
  });
});

describe('pdfua: PDF/UA-1', () => {
  it('200 on pdfengines/convert: a tagged PDF declared pdfuaid:part=1, /MarkInfo marked, title shown', async () => {
    const res = await api.gotenberg('/forms/pdfengines/convert', { pdfua: 'true' }, [
      pdfFile(await taggedPdf('Accessible'), 'tagged.pdf'),
    ]);
    const file = pdfOf(res);
    expect(xmpProperties(xmpOf(file))['http://www.aiim.org/pdfua/ns/id/:part']).toEqual(['1']);
    const json = run('qpdf', ['--json', '--json-key=qpdf', file]);
    expect(json).toMatch(/"\/MarkInfo":\s*\{\s*"\/Marked":\s*true/);
    expect(json).toMatch(/"\/DisplayDocTitle":\s*true/);
  });

  it('200 on pdfengines/convert: an untagged PDF is tagged by LibreOffice (as Gotenberg does), declared PDF/UA-1, its text kept', async () => {
    const res = await api.gotenberg('/forms/pdfengines/convert', { pdfua: 'true' }, [
      pdfFile(await numberedPdf(2, 'Plain'), 'plain.pdf'),
    ]);
    const file = pdfOf(res);
    expect(xmpProperties(xmpOf(file))['http://www.aiim.org/pdfua/ns/id/:part']).toEqual(['1']);
    expect(run('qpdf', ['--json', '--json-key=qpdf', file])).toContain('/StructTreeRoot');
    const text = pagesText(file);
    expect(text).toHaveLength(2);
    expect(text[1]).toContain('Plain Page 2');
  });

  it('200 on pdfengines/convert with pdfa and pdfua: PDF/A-2b and PDF/UA-1 together, tagged, text kept', async () => {
    const res = await api.gotenberg('/forms/pdfengines/convert', { pdfua: 'true', pdfa: 'PDF/A-2b' }, [
      pdfFile(await taggedPdf('Accessible'), 'tagged.pdf'),
    ]);
    const file = pdfOf(res);
    const props = xmpProperties(xmpOf(file));
    expect(props['http://www.aiim.org/pdfua/ns/id/:part']).toEqual(['1']);
    expect(props['pdfaid:part']).toEqual(['2']);
    expect(props['pdfaid:conformance']).toEqual(['B']);
    expect(run('qpdf', ['--json', '--json-key=qpdf', file])).toContain('/StructTreeRoot');
    expect(pagesText(file)[0]).toContain('Accessible');
  });

  it('200 on chromium/convert/html with pdfa PDF/A-3b, pdfua and metadata: all three in the answer', async () => {
    const res = await api.gotenberg(
      '/forms/chromium/convert/html',
      { pdfua: 'true', pdfa: 'PDF/A-3b', metadata: '{"Title":"Quarterly report"}' },
      [
        {
          content: Buffer.from('<!doctype html><html lang="en"><h1>Results</h1><p>Revenue grew</p></html>'),
          filename: 'index.html',
          contentType: 'text/html',
        },
      ],
    );
    const file = pdfOf(res);
    const props = xmpProperties(xmpOf(file));
    expect(props['http://www.aiim.org/pdfua/ns/id/:part']).toEqual(['1']);
    expect(props['pdfaid:part']).toEqual(['3']);
    expect(run('qpdf', ['--json', '--json-key=qpdf', file])).toContain('/StructTreeRoot');
    expect(infoOf(file).Title).toBe('Quarterly report');
    expect(pagesText(file)[0]).toMatch(/Results[\s\S]*Revenue grew/);
  });

  it('200 on libreoffice/convert: exported tagged, PDF/UA-1 with PDF/A-2b written by LibreOffice', async () => {
    const res = await api.gotenberg('/forms/libreoffice/convert', { pdfua: 'true', pdfa: 'PDF/A-2b' }, [
      pdfFile(await testDocument('page_1.docx'), 'page_1.docx'),
    ]);
    const file = pdfOf(res);
    const props = xmpProperties(xmpOf(file));
    expect(props['http://www.aiim.org/pdfua/ns/id/:part']).toEqual(['1']);
    expect(props['pdfaid:part']).toEqual(['2']);
    expect(run('qpdf', ['--json', '--json-key=qpdf', file])).toContain('/StructTreeRoot');
    expect(pagesText(file)[0]).toContain('Page 1');
  });
});

describe('several watermarks and stamps in one request (repeated fields, aligned by position)', () => {
  it('200 on /stamp: two text stamps on their own pages and a PDF stamp from the `stamp` file', async () => {
    const res = await api.gotenberg(
      '/forms/pdfengines/stamp',
      {
        stampSource: ['text', 'pdf', 'text'],
        stampExpression: ['APPROVED', '', 'COPY'],
        stampPages: ['1', '3', '2-3'],
        stampOptions: ['{"rotation":"0","position":"tc"}', '{"scale":"0.3","rotation":"0"}', '{"rotation":"0"}'],
      },
      [
        pdfFile(await numberedPdf(3, 'Doc'), 'doc.pdf'),
        { field: 'stamp', content: await numberedPdf(1, 'Seal'), filename: 'seal.pdf' },
      ],
    );
    const pages = pagesText(pdfOf(res));
    expect(pages[0]).toContain('APPROVED');
    expect(pages[0]).not.toContain('COPY');
    expect(pages[1]).toContain('COPY');
    expect(pages[1]).not.toContain('APPROVED');
    expect(pages[2]).toContain('COPY');
    expect(pages[2]).toContain('Seal Page 1');
    expect(pages[1]).not.toContain('Seal Page 1');
  });

  it('200 on merge: two watermarks and a stamp on the merged PDF', async () => {
    const res = await api.gotenberg(
      '/forms/pdfengines/merge',
      {
        watermarkSource: ['text', 'text'],
        watermarkExpression: ['DRAFT', 'INTERNAL'],
        watermarkPages: ['1', '2'],
        watermarkOptions: ['{"rotation":"0"}', '{"rotation":"0","position":"bc"}'],
        stampSource: 'text',
        stampExpression: 'SIGNED',
        stampOptions: '{"rotation":"0","position":"tc"}',
      },
      [pdfFile(await numberedPdf(1, 'A'), '1.pdf'), pdfFile(await numberedPdf(1, 'B'), '2.pdf')],
    );
    const pages = pagesText(pdfOf(res));
    expect(pages[0]).toMatch(/DRAFT/);
    expect(pages[0]).not.toMatch(/INTERNAL/);
    expect(pages[1]).toMatch(/INTERNAL/);
    expect(pages.every((p) => p.includes('SIGNED'))).toBe(true);
  });

  it('400: a PDF mark without its file, and a wrong source among several, as Gotenberg answers them', async () => {
    const one = pdfFile(await numberedPdf(1), 'a.pdf');
    expect(
      textError(
        await api.gotenberg(
          '/forms/pdfengines/watermark',
          { watermarkSource: ['text', 'pdf'], watermarkExpression: ['X', ''] },
          [one],
        ),
      ),
    ).toEqual({ status: 400, message: 'Invalid form data: a watermark file is required for image or pdf source' });
    const wrong = textError(
      await api.gotenberg('/forms/pdfengines/stamp', { stampSource: ['text', 'svg'], stampExpression: ['X', 'Y'] }, [
        one,
      ]),
    );
    expect(wrong.message).toBe(
      "Invalid form data: form field 'stampSource' is invalid (got 'svg', resulting to wrong value, expected either 'text', 'image' or 'pdf')",
    );
  });
});

describe("Gotenberg's error bodies on the pdfengines and LibreOffice routes", () => {
  it("400: every problem of a form, one per line, in the words of Gotenberg's binders", async () => {
    const res = await api.gotenberg(
      '/forms/pdfengines/split',
      { splitMode: 'intervals', splitSpan: 'two', imageQuality: 'high', optimizeImages: 'true' },
      [pdfFile(await numberedPdf(2), 'a.pdf')],
    );
    expect(textError(res)).toEqual({
      status: 400,
      message: [
        "Invalid form data: form field 'splitSpan' is invalid (got 'two', resulting to strconv.Atoi: parsing \"two\": invalid syntax)",
        "form field 'imageQuality' is invalid (got 'high', resulting to strconv.Atoi: parsing \"high\": invalid syntax)",
      ].join('\n'),
    });
    const zero = await api.gotenberg('/forms/pdfengines/split', { splitMode: 'intervals', splitSpan: '0' }, [
      pdfFile(await numberedPdf(2), 'a.pdf'),
    ]);
    expect(textError(zero).message).toBe(
      "Invalid form data: form field 'splitSpan' is invalid (got '0', resulting to value is inferior to 1)",
    );
    const unify = await api.gotenberg(
      '/forms/libreoffice/convert',
      { splitMode: 'intervals', splitSpan: '1', splitUnify: 'true' },
      [pdfFile(await testDocument('page_1.docx'), 'page_1.docx')],
    );
    expect(textError(unify)).toEqual({
      status: 400,
      message:
        "Invalid form data: form field 'splitUnify' is invalid (got 'true', resulting to unify is not available for split mode 'intervals')",
    });
  });

  it("400: an unknown pdfa on LibreOffice in Gotenberg's engine words; the metadata read answer is JSON", async () => {
    const res = await api.gotenberg('/forms/libreoffice/convert', { pdfa: 'PDF/A-4f' }, [
      pdfFile(await testDocument('page_1.docx'), 'page_1.docx'),
    ]);
    expect(textError(res)).toEqual({
      status: 400,
      message:
        'The requested PDF format is not supported, or no PDF engine could apply it. Valid formats include PDF/A-1b, PDF/A-2b, PDF/A-3b, and PDF/UA.',
    });
    const read = await api.gotenberg('/forms/pdfengines/metadata/read', {}, [pdfFile(await numberedPdf(1), 'a.pdf')]);
    expect(read.statusCode).toBe(200);
    expect(read.headers['content-type']).toMatch(/^application\/json/);
    expect(Object.keys(JSON.parse(read.body) as object)).toEqual(['a.pdf']);
  });
});
