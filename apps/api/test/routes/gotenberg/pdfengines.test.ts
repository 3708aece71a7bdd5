import { describe, expect, it } from 'vitest';
import { encryptedPdf, formPdf, numberedPdf, pageCount, pagesText, run } from '../../fixtures/pdfs';
import { infoOf } from '../../fixtures/metadata-pdfs';
import { saveBody, unzip } from '../../fixtures/results';
import { gotenbergAppForSuite, pdfFile } from './gotenberg-api';

/**
 * /gotenberg/forms/pdfengines/*: the curl examples of Gotenberg 8's documentation as requests (every file in
 * `files`, Basic auth), each answer read back with qpdf and poppler.
 */
const api = gotenbergAppForSuite();

const firstLines = (file: string) => pagesText(file).map((t) => t.split('\n')[0]);
const pdfOf = (res: { statusCode: number; rawPayload: Buffer; body: string; headers: Record<string, unknown> }) => {
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  expect(res.headers['content-type']).toBe('application/pdf');
  return saveBody(res.rawPayload);
};
const zipOf = (res: { statusCode: number; rawPayload: Buffer; body: string; headers: Record<string, unknown> }) => {
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  expect(res.headers['content-type']).toBe('application/zip');
  return unzip(res.rawPayload);
};
const textError = (res: { statusCode: number; body: string; headers: Record<string, unknown> }) => {
  expect(res.headers['content-type']).toBe('text/plain; charset=UTF-8');
  return { status: res.statusCode, message: res.body };
};

describe('POST /forms/pdfengines/merge', () => {
  it('200: merged in Gotenberg order (by name, numbers first), named by a UUID', async () => {
    const res = await api.gotenberg('/forms/pdfengines/merge', {}, [
      pdfFile(await numberedPdf(1, 'Ten'), '10_c.pdf'),
      pdfFile(await numberedPdf(2, 'Two'), '2_b.pdf'),
      pdfFile(await numberedPdf(1, 'One'), '1_a.pdf'),
    ]);
    const file = pdfOf(res);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="[0-9a-f-]{36}\.pdf"$/);
    expect(firstLines(file)).toEqual(['One Page 1', 'Two Page 1', 'Two Page 2', 'Ten Page 1']);
  });

  it('200: Gotenberg-Output-Filename names it; pdfa, metadata and flatten apply to the result', async () => {
    const res = await api.gotenberg(
      '/forms/pdfengines/merge',
      { pdfa: 'PDF/A-2b', metadata: JSON.stringify({ Title: 'Merged', Author: 'Ada' }), flatten: 'true' },
      [pdfFile(await numberedPdf(1, 'A'), 'a.pdf'), pdfFile(await formPdf(), 'b.pdf')],
      { authorization: api.basic, 'gotenberg-output-filename': 'contract' },
    );
    const file = pdfOf(res);
    expect(res.headers['content-disposition']).toBe('attachment; filename="contract.pdf"');
    expect(pageCount(file)).toBe(2);
    expect(infoOf(file)).toMatchObject({ Title: 'Merged', Author: 'Ada' });
    expect(run('pdfinfo', ['-meta', file])).toMatch(/pdfaid:part(>|=['"])2/);
    expect(JSON.parse(run('qpdf', ['--json', '--json-key=acroform', file])).acroform.fields).toHaveLength(0);
  });

  it('400: a field DocFlow does not support is named, in plain text', async () => {
    const res = await api.gotenberg('/forms/pdfengines/merge', { colour: 'red', splitMode: 'pages' }, [
      pdfFile(await numberedPdf(1), 'a.pdf'),
    ]);
    const e = textError(res);
    expect(e.status).toBe(400);
    expect(e.message).toMatch(/^Invalid form data: /);
    expect(e.message).toContain("form field 'colour' is not supported by DocFlow");
    expect(e.message).toContain("form field 'splitMode' is not supported by DocFlow on this route");
  });

  it('400: no PDF, a file that is not a PDF, a PDF/A part Gotenberg does not know', async () => {
    expect(textError(await api.gotenberg('/forms/pdfengines/merge', {}, []))).toEqual({
      status: 400,
      message: 'Invalid form data: no form file found for extensions: [.pdf]',
    });
    const docx = await api.gotenberg('/forms/pdfengines/merge', {}, [pdfFile(Buffer.from('hello'), 'notes.docx')]);
    expect(textError(docx)).toMatchObject({ status: 400, message: expect.stringContaining("'notes.docx'") });
    const pdfa1 = await api.gotenberg('/forms/pdfengines/merge', { pdfa: 'PDF/A-4' }, [
      pdfFile(await numberedPdf(1), 'a.pdf'),
    ]);
    expect(textError(pdfa1)).toEqual({
      status: 400,
      message:
        'The requested PDF format is not supported, or no PDF engine could apply it. Valid formats include PDF/A-1b, PDF/A-2b, PDF/A-3b, and PDF/UA.',
    });
    const fake = await api.gotenberg('/forms/pdfengines/merge', {}, [pdfFile(Buffer.from('not a pdf'), 'a.pdf')]);
    expect(textError(fake).status).toBe(400);
  });
});

describe('POST /forms/pdfengines/split', () => {
  it('200: intervals of 2 pages: a zip of pages_3_0.pdf (2 pages) and pages_3_1.pdf (1 page)', async () => {
    const zip = zipOf(
      await api.gotenberg('/forms/pdfengines/split', { splitMode: 'intervals', splitSpan: '2' }, [
        pdfFile(await numberedPdf(3, 'S'), 'pages_3.pdf'),
      ]),
    );
    expect(zip.names).toEqual(['pages_3_0.pdf', 'pages_3_1.pdf']);
    expect(firstLines(zip.paths[0]!)).toEqual(['S Page 1', 'S Page 2']);
    expect(firstLines(zip.paths[1]!)).toEqual(['S Page 3']);
  });

  it('200: pages "2-": one file per page; with splitUnify one PDF of those pages', async () => {
    const zip = zipOf(
      await api.gotenberg('/forms/pdfengines/split', { splitMode: 'pages', splitSpan: '2-' }, [
        pdfFile(await numberedPdf(3, 'P'), 'pages_3.pdf'),
      ]),
    );
    expect(zip.names).toEqual(['pages_3_0.pdf', 'pages_3_1.pdf']);
    expect(zip.paths.map((p) => firstLines(p))).toEqual([['P Page 2'], ['P Page 3']]);
    const unified = await api.gotenberg(
      '/forms/pdfengines/split',
      { splitMode: 'pages', splitSpan: '2-', splitUnify: 'true' },
      [pdfFile(await numberedPdf(3, 'P'), 'pages_3.pdf')],
    );
    expect(unified.headers['content-disposition']).toBe('attachment; filename="pages_3.pdf"');
    expect(firstLines(pdfOf(unified))).toEqual(['P Page 2', 'P Page 3']);
  });

  it('200: pdfcpu and qpdf spans ("2-end", "2-z", "even", "!1"); the zip takes Gotenberg-Output-Filename, its parts the source name', async () => {
    const five = pdfFile(await numberedPdf(5, 'Q'), 'report.pdf');
    const split = async (splitSpan: string) => {
      const res = await api.gotenberg('/forms/pdfengines/split', { splitMode: 'pages', splitSpan }, [five], {
        authorization: api.basic,
        'gotenberg-output-filename': 'parts',
      });
      expect(res.headers['content-disposition']).toBe('attachment; filename="parts.zip"');
      const zip = zipOf(res);
      return { names: zip.names, firstLines: zip.paths.map((p) => firstLines(p)[0]) };
    };
    const tail = {
      names: ['report_0.pdf', 'report_1.pdf', 'report_2.pdf', 'report_3.pdf'],
      firstLines: ['Q Page 2', 'Q Page 3', 'Q Page 4', 'Q Page 5'],
    };
    expect(await split('2-end')).toEqual(tail);
    expect(await split('2-z')).toEqual(tail);
    expect(await split('!1')).toEqual(tail);
    expect(await split('even')).toEqual({
      names: ['report_0.pdf', 'report_1.pdf'],
      firstLines: ['Q Page 2', 'Q Page 4'],
    });
  });

  it('400: splitMode and splitSpan are required and checked', async () => {
    const file = [pdfFile(await numberedPdf(3), 'pages_3.pdf')];
    const none = textError(await api.gotenberg('/forms/pdfengines/split', {}, file));
    expect(none.status).toBe(400);
    expect(none.message).toContain("form field 'splitMode' is required");
    expect(none.message).toContain("form field 'splitSpan' is required");
    const bad = textError(
      await api.gotenberg('/forms/pdfengines/split', { splitMode: 'chunks', splitSpan: '2' }, file),
    );
    expect(bad).toEqual({
      status: 400,
      message:
        "Invalid form data: form field 'splitMode' is invalid (got 'chunks', resulting to wrong value, expected either 'intervals' or 'pages')",
    });
    const beyond = textError(
      await api.gotenberg('/forms/pdfengines/split', { splitMode: 'pages', splitSpan: '5' }, file),
    );
    expect(beyond).toMatchObject({ status: 400, message: expect.stringContaining('splitSpan') });
  });
});

describe('POST /forms/pdfengines/flatten and /convert', () => {
  it('200: one form flattened; two PDFs flattened answer a zip of their names', async () => {
    const one = pdfOf(await api.gotenberg('/forms/pdfengines/flatten', {}, [pdfFile(await formPdf(), 'form.pdf')]));
    expect(pagesText(one)[0]).toContain('Ada Lovelace');
    expect(JSON.parse(run('qpdf', ['--json', '--json-key=acroform', one])).acroform.fields).toHaveLength(0);
    const zip = zipOf(
      await api.gotenberg('/forms/pdfengines/flatten', {}, [
        pdfFile(await formPdf(), 'form.pdf'),
        pdfFile(await numberedPdf(2), 'plain.pdf'),
      ]),
    );
    expect(zip.names).toEqual(['form.pdf', 'plain.pdf']);
    expect(pageCount(zip.paths[1]!)).toBe(2);
  });

  it('200: convert to PDF/A-1b (PDF 1.4), 2b and 3b, each declared in its XMP; 400 without pdfa', async () => {
    for (const [pdfa, part] of [
      ['PDF/A-1b', 1],
      ['PDF/A-2b', 2],
      ['pdf/a-3b', 3],
    ] as const) {
      const file = pdfOf(
        await api.gotenberg('/forms/pdfengines/convert', { pdfa }, [pdfFile(await numberedPdf(1), 'a.pdf')]),
      );
      const meta = run('pdfinfo', ['-meta', file]);
      expect(meta, pdfa).toMatch(new RegExp(`pdfaid:part(>|=['"])${part}`));
      expect(meta, pdfa).toMatch(/pdfaid:conformance(>|=['"])B/);
      if (part === 1) expect(run('pdfinfo', [file])).toMatch(/PDF version:\s+1\.4/);
    }
    const none = textError(
      await api.gotenberg('/forms/pdfengines/convert', {}, [pdfFile(await numberedPdf(1), 'a.pdf')]),
    );
    expect(none).toMatchObject({ status: 400, message: expect.stringContaining("either 'pdfa' or 'pdfua'") });
  });
});

describe('POST /forms/pdfengines/metadata/{write,read}', () => {
  it('200: written, then read back under the file names with ExifTool keys', async () => {
    const metadata = {
      Author: 'Julien Neuhart',
      Copyright: 'Julien Neuhart',
      CreateDate: '2006-09-18T16:27:50-04:00',
      Creator: 'Gotenberg',
      Keywords: ['first', 'second'],
      Marked: true,
      Producer: 'DocFlow',
      Subject: 'Sample',
      Title: 'Sample',
      Trapped: 'Unknown',
    };
    const written = await api.gotenberg(
      '/forms/pdfengines/metadata/write',
      { metadata: JSON.stringify(metadata) },
      [pdfFile(await numberedPdf(1), 'page_1.pdf')],
      { authorization: api.basic, 'gotenberg-output-filename': 'foo' },
    );
    const file = pdfOf(written);
    expect(written.headers['content-disposition']).toBe('attachment; filename="foo.pdf"');
    const read = await api.gotenberg('/forms/pdfengines/metadata/read', {}, [pdfFile(file, 'foo.pdf')]);
    expect(read.statusCode).toBe(200);
    expect(read.headers['content-type']).toMatch(/^application\/json/);
    expect(read.json()).toEqual({
      'foo.pdf': expect.objectContaining({
        Author: 'Julien Neuhart',
        Copyright: 'Julien Neuhart',
        CreateDate: '2006:09:18 20:27:50+00:00',
        Creator: 'Gotenberg',
        Keywords: ['first', 'second'],
        Marked: true,
        Producer: 'DocFlow',
        Subject: 'Sample',
        Title: 'Sample',
        Trapped: 'Unknown',
        PageCount: 1,
      }),
    });
  });

  it('200: Marked false and Trapped True read back; a PDF without XMP has none of the three', async () => {
    const written = await api.gotenberg(
      '/forms/pdfengines/metadata/write',
      { metadata: JSON.stringify({ Marked: 'False', Trapped: true, Copyright: '© 2026 A & B <c>' }) },
      [pdfFile(await numberedPdf(1), 'a.pdf')],
    );
    const read = await api.gotenberg('/forms/pdfengines/metadata/read', {}, [
      pdfFile(pdfOf(written), 'marked.pdf'),
      pdfFile(await numberedPdf(1), 'plain.pdf'),
    ]);
    expect(read.statusCode).toBe(200);
    const body = read.json<Record<string, Record<string, unknown>>>();
    expect(body['marked.pdf']).toMatchObject({ Copyright: '© 2026 A & B <c>', Marked: false, Trapped: 'True' });
    expect(body['plain.pdf']).not.toHaveProperty('Copyright');
    expect(body['plain.pdf']).not.toHaveProperty('Marked');
    expect(body['plain.pdf']).not.toHaveProperty('Trapped');
  });

  it('400: metadata required on write; a key DocFlow cannot write is named', async () => {
    const file = [pdfFile(await numberedPdf(1), 'page_1.pdf')];
    expect(textError(await api.gotenberg('/forms/pdfengines/metadata/write', {}, file))).toMatchObject({
      status: 400,
      message: expect.stringContaining("form field 'metadata' is required"),
    });
    const unknown = await api.gotenberg(
      '/forms/pdfengines/metadata/write',
      { metadata: JSON.stringify({ Title: 'x', Colour: 'red' }) },
      file,
    );
    expect(textError(unknown)).toMatchObject({ status: 400, message: expect.stringContaining("'Colour'") });
    const notJson = await api.gotenberg('/forms/pdfengines/metadata/write', { metadata: '{nope' }, file);
    expect(textError(notJson)).toMatchObject({ status: 400, message: expect.stringContaining('expected JSON') });
  });
});

describe('POST /forms/pdfengines/encrypt', () => {
  it('200: user and owner passwords: the file opens only with a password', async () => {
    const file = pdfOf(
      await api.gotenberg('/forms/pdfengines/encrypt', { userPassword: 'foo', ownerPassword: 'bar' }, [
        pdfFile(await numberedPdf(1, 'Enc'), 'page_1.pdf'),
      ]),
    );
    expect(() => run('pdftotext', [file, '-'])).toThrow();
    expect(pagesText(file, 'foo')[0]).toContain('Enc Page 1');
    expect(run('qpdf', ['--password=bar', '--show-encryption', file])).toMatch(/AESv3/);
  });

  it('200: an owner password alone: the file opens freely, printing is refused', async () => {
    const file = pdfOf(
      await api.gotenberg('/forms/pdfengines/encrypt', { ownerPassword: 'bar', allowPrinting: 'false' }, [
        pdfFile(await numberedPdf(1, 'Owner'), 'page_1.pdf'),
      ]),
    );
    expect(pagesText(file)[0]).toContain('Owner Page 1');
    expect(run('qpdf', ['--show-encryption', file])).toMatch(/print low resolution: not allowed/);
  });

  it('400: a password is required; an encrypted upload needs its password', async () => {
    const none = await api.gotenberg('/forms/pdfengines/encrypt', {}, [pdfFile(await numberedPdf(1), 'a.pdf')]);
    expect(textError(none)).toEqual({
      status: 400,
      message: "Invalid form data: a 'userPassword' or 'ownerPassword' is required",
    });
    const restricted = await api.gotenberg('/forms/pdfengines/merge', { allowPrinting: 'false' }, [
      pdfFile(await numberedPdf(1), 'a.pdf'),
    ]);
    expect(textError(restricted)).toEqual({
      status: 400,
      message: "Invalid form data: permission restrictions require a 'userPassword' or 'ownerPassword'",
    });
    const locked = await api.gotenberg('/forms/pdfengines/encrypt', { userPassword: 'x' }, [
      pdfFile(await encryptedPdf('user'), 'locked.pdf'),
    ]);
    expect(textError(locked).status).toBe(400);
  });
});
