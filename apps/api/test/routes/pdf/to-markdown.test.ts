import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import ExcelJS from 'exceljs';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TToJsonResult } from '@docflow/contracts';
import { processingApp } from '../../fixtures/api';
import { unzip } from '../../fixtures/results';
import { DOCX_OUTLINE, structuredDocx } from '../../fixtures/structured-docs';
import { ENGLISH, scannedPdf, textImage } from '../ocr/ocr-images';

/**
 * Structured extraction on documents the tests make: a DOCX (Word headings, nested bullet and numbered lists, a table)
 * converted on the way and read back as Markdown, JSON and CSV; a two-column page read column by column; a scan of
 * the DOCX's page read by OCR. The accuracy figures are printed (share of expected words, of table cells found).
 */
let api: Awaited<ReturnType<typeof processingApp>>;
let docxPdf: Buffer;
beforeAll(async () => {
  api = await processingApp({ allowedEndpoints: ['pdf', 'conversion', 'ocr'] });
  const res = await api.post('/conversion/auto-to-pdf', {}, [{ content: structuredDocx(), filename: 'report.docx' }]);
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  docxPdf = res.rawPayload;
}, 120_000);
afterAll(() => api.t.close());

const ok = (res: { statusCode: number; body: string }) => {
  expect(res.statusCode, res.body.slice(0, 400)).toBe(200);
  return res.body;
};
const words = (s: string) => s.toLowerCase().match(/[a-z0-9.]+/g) ?? [];

/** Share of the expected words found, in order (a longest common subsequence over words). */
function wordRecall(expected: string[], got: string[]): number {
  const prev = new Array<number>(got.length + 1).fill(0);
  for (const e of expected) {
    let diag = 0;
    for (let j = 1; j <= got.length; j++) {
      const up = prev[j]!;
      prev[j] = e === got[j - 1] ? diag + 1 : Math.max(prev[j]!, prev[j - 1]!);
      diag = up;
    }
  }
  return prev[got.length]! / expected.length;
}

/** Each expected piece found after the previous one: their order kept. */
function expectInOrder(text: string, pieces: string[]) {
  let at = 0;
  for (const p of pieces) {
    const i = text.indexOf(p, at);
    expect(i, `"${p}" after offset ${at} in:\n${text}`).toBeGreaterThanOrEqual(0);
    at = i + p.length;
  }
}

const o = DOCX_OUTLINE;
const docxWords = () =>
  words(
    [
      o.title,
      o.paragraphs[0],
      o.sections[0],
      ...o.bullets.map((b) => b.text),
      o.paragraphs[1],
      ...o.table.flat(),
      o.sections[1],
      o.paragraphs[2],
      ...o.numbered.map((b) => b.text),
    ].join(' '),
  );

describe('POST /pdf/to-markdown', () => {
  it('a DOCX (converted on the way): headings by level, nested lists, the table with every cell, in order', async () => {
    const md = ok(await api.post('/pdf/to-markdown', {}, [{ content: structuredDocx(), filename: 'report.docx' }]));
    expectInOrder(md, [
      '<!-- page 1 -->',
      `# ${o.title}\n`,
      o.paragraphs[0]!,
      `## ${o.sections[0]}\n`,
      `- ${o.bullets[0]!.text}\n`,
      `    - ${o.bullets[1]!.text}\n`,
      `    - ${o.bullets[2]!.text}\n`,
      `- ${o.bullets[3]!.text}\n`,
      o.paragraphs[1]!,
      '| Station | Reading | Team |\n| --- | --- | --- |\n',
      ...o.table.slice(1).map((r) => `| ${r.join(' | ')} |`),
      `## ${o.sections[1]}\n`,
      o.paragraphs[2]!,
      `1. ${o.numbered[0]!.text}\n`,
      `2. ${o.numbered[1]!.text}\n`,
      `    1. ${o.numbered[2]!.text}`,
    ]);
    const recall = wordRecall(docxWords(), words(md));
    console.log(`[to-markdown] DOCX: ${(recall * 100).toFixed(1)}% of expected words recovered in order`);
    expect(recall).toBe(1);
  });

  it('HTML lists (Chromium draws <ul> bullets as shapes): nested ul and ol come back as - and 1. items', async () => {
    const html =
      '<!doctype html><html><body style="font-family: sans-serif"><h1>Lists</h1><p>Before the lists.</p>' +
      '<ul><li>Apples are red</li><li>Pears are green<ul><li>Conference pears</li>' +
      '<li>Williams pears<ul><li>Deepest item</li></ul></li></ul></li><li>Plums are purple</li></ul>' +
      '<p>Between the lists.</p>' +
      '<ol><li>First step</li><li>Second step<ol><li>Second step part one</li><li>Second step part two</li></ol></li>' +
      '<li>Third step<ul><li>A bullet under a number</li></ul></li></ol><p>After the lists.</p></body></html>';
    const upload = [{ content: Buffer.from(html), filename: 'lists.html' }];
    const md = ok(await api.post('/pdf/to-markdown', {}, upload));
    expect(md).toContain(
      [
        'Before the lists.',
        '',
        '- Apples are red',
        '- Pears are green',
        '    - Conference pears',
        '    - Williams pears',
        '        - Deepest item',
        '- Plums are purple',
        '',
        'Between the lists.',
        '',
        '1. First step',
        '2. Second step',
        '    1. Second step part one',
        '    2. Second step part two',
        '3. Third step',
        '    - A bullet under a number',
        '',
        'After the lists.',
      ].join('\n'),
    );
    // The JSON names the shape each bullet was drawn as: disc, circle, square by depth (Chromium's defaults).
    const { data } = JSON.parse(ok(await api.post('/pdf/to-json', {}, upload))) as { data: TToJsonResult };
    const items = data.pages[0]!.blocks.filter((b) => b.type === 'list-item');
    expect(items.slice(0, 6).map((b) => [b.marker, b.level])).toEqual([
      ['•', 0],
      ['•', 0],
      ['◦', 1],
      ['◦', 1],
      ['▪', 2],
      ['•', 0],
    ]);
  }, 120_000);

  it('a two-column page reads the left column, then the right; a title across both comes first', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage([595, 842]);
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const bold = await doc.embedFont(StandardFonts.HelveticaBold);
    page.drawText('Two Column Newsletter', { x: 60, y: 780, size: 22, font: bold });
    const left = Array.from({ length: 12 }, (_, i) => `left column line ${i + 1} about harbour tides`);
    const right = Array.from({ length: 12 }, (_, i) => `right column line ${i + 1} about mountain snow`);
    left.forEach((t, i) => page.drawText(t, { x: 60, y: 740 - i * 14, size: 11, font }));
    // Baselines offset from the left column's: the columns' lines do not pair up.
    right.forEach((t, i) => page.drawText(t, { x: 320, y: 735 - i * 14, size: 11, font }));
    const md = ok(
      await api.post('/pdf/to-markdown', {}, [{ content: Buffer.from(await doc.save()), filename: 'two.pdf' }]),
    );
    expectInOrder(md, ['# Two Column Newsletter', ...left, ...right]);
    const expected = words(['Two Column Newsletter', ...left, ...right].join(' '));
    const recall = wordRecall(expected, words(md));
    console.log(`[to-markdown] two columns: ${(recall * 100).toFixed(1)}% of words in reading order`);
    expect(recall).toBe(1);
  });

  it('an image drawn between two paragraphs is a reference in its place; a second page is marked', async () => {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    const img = await doc.embedPng(
      await sharp({ create: { width: 200, height: 100, channels: 3, background: '#3366cc' } })
        .png()
        .toBuffer(),
    );
    const first = doc.addPage([595, 842]);
    first.drawText('Text above the figure.', { x: 60, y: 780, size: 11, font });
    first.drawImage(img, { x: 60, y: 600, width: 200, height: 100 });
    first.drawText('Text below the figure.', { x: 60, y: 560, size: 11, font });
    doc.addPage([595, 842]).drawText('Second page text.', { x: 60, y: 780, size: 11, font });
    const md = ok(
      await api.post('/pdf/to-markdown', {}, [{ content: Buffer.from(await doc.save()), filename: 'fig.pdf' }]),
    );
    expect(md).toBe(
      '<!-- page 1 -->\n\nText above the figure.\n\n![image p1-1](image-p1-1)\n\nText below the figure.\n\n' +
        '<!-- page 2 -->\n\nSecond page text.\n',
    );
  });

  it('a scan of the DOCX page (no text layer) is read by OCR: the same words at OCR accuracy', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'docflow-extract-'));
    const pdf = path.join(dir, 'doc.pdf');
    writeFileSync(pdf, docxPdf);
    execFileSync('pdftoppm', ['-r', '300', '-gray', '-png', '-f', '1', '-l', '1', pdf, path.join(dir, 'p')]);
    const png = readFileSync(
      path.join(
        dir,
        readdirSync(dir).find((f) => f.endsWith('.png'))!,
      ),
    );
    const res = await api.post('/pdf/to-markdown', {}, [{ content: await scannedPdf([png]), filename: 'scan.pdf' }]);
    const md = ok(res);
    expect(res.headers['x-ocr-pages']).toBe('1');
    const recall = wordRecall(docxWords(), words(md));
    const cells = o.table.flat().filter((c) => md.includes(c)).length / o.table.flat().length;
    console.log(
      `[to-markdown] scan (OCR): ${(recall * 100).toFixed(1)}% of expected words in order, ${(cells * 100).toFixed(1)}% of table cells found`,
    );
    expect(recall).toBeGreaterThanOrEqual(0.9);
    // The structure survives OCR: headings by their measured size, lists nested by indent, the table by its columns.
    expectInOrder(md, [
      `# ${o.title}\n`,
      `## ${o.sections[0]}\n`,
      `- ${o.bullets[0]!.text}\n`,
      `    - ${o.bullets[1]!.text}\n`,
      '| Station | Reading | Team |',
      `## ${o.sections[1]}\n`,
      `1. ${o.numbered[0]!.text}\n`,
    ]);
  }, 120_000);
});

describe('POST /pdf/to-json', () => {
  it('blocks with type, text, box, font and size; the table as rows × cells with boxes', async () => {
    const r = (
      JSON.parse(ok(await api.post('/pdf/to-json', {}, [{ content: docxPdf, filename: 'report.pdf' }]))) as {
        data: TToJsonResult;
      }
    ).data;
    expect(r.converted).toBe(false);
    const blocks = r.pages[0]!.blocks;
    const headings = blocks.filter((b) => b.type === 'heading');
    expect(headings.map((h) => [h.text, h.level])).toEqual([
      [o.title, 1],
      [o.sections[0], 2],
      [o.sections[1], 2],
    ]);
    expect(headings[0]!.size!).toBeGreaterThan(headings[1]!.size!);
    const items = blocks.filter((b) => b.type === 'list-item');
    expect(items.map((b) => [b.text, b.level])).toEqual([...o.bullets, ...o.numbered].map((b) => [b.text, b.level]));
    const table = blocks.find((b) => b.type === 'table')!;
    const grid = table.rows!.map((row) => row.cells.map((c) => c.text));
    const matched = o.table.flat().filter((c, i) => grid.flat()[i] === c).length;
    console.log(`[to-json] table cells matched: ${matched}/${o.table.flat().length}`);
    expect(grid).toEqual(o.table);
    // Cells of a row share their band; the columns go left to right.
    for (const row of table.rows!) {
      const xs = row.cells.map((c) => c.box.x);
      expect([...xs].sort((a, b) => a - b)).toEqual(xs);
      for (const c of row.cells) expect(Math.abs(c.box.y - row.cells[0]!.box.y)).toBeLessThan(2);
    }
    const para = blocks.find((b) => b.type === 'paragraph')!;
    expect(para.text).toBe(o.paragraphs[0]);
    expect(para.font).toMatch(/DejaVu/);
    expect(para.box.width).toBeGreaterThan(200);
    expect(para.box.y).toBeGreaterThan(headings[0]!.box.y);
  });
});

describe('POST /pdf/tables', () => {
  it('the table as CSV; two tables as a ZIP of one CSV each', async () => {
    const res = await api.post('/pdf/tables', {}, [{ content: docxPdf, filename: 'report.pdf' }]);
    ok(res);
    expect(res.headers['content-type']).toMatch(/text\/csv/);
    expect(res.body).toBe(o.table.map((r) => r.join(',')).join('\r\n') + '\r\n');

    const merged = await api.post('/pdf/merge', {}, [
      { content: docxPdf, filename: 'a.pdf' },
      { content: docxPdf, filename: 'b.pdf' },
    ]);
    const zip = await api.post('/pdf/tables', {}, [{ content: merged.rawPayload, filename: 'two.pdf' }]);
    expect(zip.statusCode, zip.body.slice(0, 300)).toBe(200);
    const { names, paths } = unzip(zip.rawPayload);
    expect(names.sort()).toEqual(['two-table-p1-1.csv', 'two-table-p2-1.csv']);
    for (const p of paths) expect(readFileSync(p, 'utf8').split('\r\n')[1]).toBe('Alder Point,42.5,North');
  });

  it('422 when the document has no table', async () => {
    const doc = await PDFDocument.create();
    doc.addPage().drawText('Only prose here.', { x: 50, y: 700 });
    const res = await api.post('/pdf/tables', {}, [{ content: Buffer.from(await doc.save()), filename: 'p.pdf' }]);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'INVALID_INPUT' });
  });
});

describe('POST /pdf/tables format=xlsx', () => {
  it('one workbook, a sheet per table, numbers as numbers', async () => {
    const merged = await api.post('/pdf/merge', {}, [
      { content: docxPdf, filename: 'a.pdf' },
      { content: docxPdf, filename: 'b.pdf' },
    ]);
    const res = await api.post('/pdf/tables', { format: 'xlsx' }, [
      { content: merged.rawPayload, filename: 'two.pdf' },
    ]);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/two-tables\.xlsx/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    expect(book.worksheets.map((w) => w.name)).toEqual(['p1-1', 'p2-1']);
    for (const sheet of book.worksheets) {
      const grid = o.table.map((_, r) => o.table[0]!.map((__, c) => sheet.getRow(r + 1).getCell(c + 1).value));
      expect(grid).toEqual(o.table.map((row, r) => row.map((v) => (r > 0 && /^\d/.test(v) ? Number(v) : v))));
    }
  });
});

describe('Office and HTML in', () => {
  // An <ol>: Chromium prints its numbers as text. Its disc bullets (<ul>) are drawn shapes, not text, so a bulleted
  // HTML list comes back as paragraphs.
  it('an HTML upload is converted on the way: its heading, numbered list and table come back', async () => {
    const html =
      '<!doctype html><html><body style="font-family: DejaVu Sans; font-size: 11pt">' +
      '<h1 style="font-size: 24pt">Harbour Survey</h1><p>Readings were taken at dawn on each of the three piers.</p>' +
      '<ol><li>East pier calm</li><li>West pier rough</li></ol>' +
      '<table style="border-collapse: collapse"><tr><th style="padding: 4px 24px">Pier</th><th style="padding: 4px 24px">Depth</th></tr>' +
      '<tr><td style="padding: 4px 24px">East</td><td style="padding: 4px 24px">12.5</td></tr>' +
      '<tr><td style="padding: 4px 24px">West</td><td style="padding: 4px 24px">9.0</td></tr></table></body></html>';
    const res = await api.post('/pdf/to-markdown', {}, [{ content: Buffer.from(html), filename: 'survey.html' }]);
    const md = ok(res);
    expectInOrder(md, [
      '# Harbour Survey',
      'Readings were taken at dawn',
      '1. East pier calm',
      '2. West pier rough',
      '| Pier | Depth |',
      '| East | 12.5 |',
      '| West | 9.0 |',
    ]);
  });
});

describe('OCR only where needed', () => {
  it('per page: a blank page is skipped, a printed page keeps its text layer, only the scanned page is OCR-ed', async () => {
    const doc = await PDFDocument.create();
    doc.addPage([595, 842]);
    doc.addPage([595, 842]).drawText('Printed page text.', { x: 60, y: 780, size: 11 });
    const scan = await PDFDocument.load(await scannedPdf([await textImage({ lines: ENGLISH, height: 700 })]));
    doc.addPage((await doc.copyPages(scan, [0]))[0]!);
    const res = await api.post('/pdf/to-markdown', {}, [{ content: Buffer.from(await doc.save()), filename: 'b.pdf' }]);
    const md = ok(res);
    expect(res.headers['x-ocr-pages']).toBe('3');
    expect(md.startsWith('<!-- page 1 -->\n\n<!-- page 2 -->\n\nPrinted page text.\n\n<!-- page 3 -->\n\n')).toBe(true);
    const recall = wordRecall(words(ENGLISH.join(' ')), words(md));
    console.log(`[to-markdown] mixed document, scanned page: ${(recall * 100).toFixed(1)}% of words`);
    expect(recall).toBeGreaterThanOrEqual(0.9);
  }, 60_000);
});
