import { describe, expect, it } from 'vitest';
import type { LayoutText } from '../../../src/core/operations/pdf/interfaces';
import { parseLayoutXml } from '../../../src/core/modules/poppler/layout-xml';
import { blocksOf, scaleOf } from '../../../src/core/operations/extract/blocks';
import { markerCandidates, withDrawnMarker } from '../../../src/core/operations/extract/drawn-markers';
import { findTables } from '../../../src/core/operations/extract/find-tables';
import { toMarkdown } from '../../../src/core/operations/extract/markdown';
import { boxOf } from '../../../src/core/operations/extract/model';
import { readingOrder } from '../../../src/core/operations/extract/reading-order';
import { stripsOf } from '../../../src/core/operations/extract/strips';

/** The heuristics on made layouts: the page as pdftohtml would give it, no engine involved. */

const line = (text: string, x: number, y: number, o: Partial<LayoutText> = {}): LayoutText => ({
  text,
  x,
  y,
  width: o.width ?? text.length * 5.5,
  height: o.height ?? (o.size ?? 11) * 1.2,
  size: 11,
  font: 'Body',
  bold: false,
  italic: false,
  ...o,
});

describe('pdftohtml XML', () => {
  it('lines with their font, size, weight; fonts declared on an earlier page still known; images', () => {
    const xml =
      '<pdf2xml><page number="1" height="792" width="612"><fontspec id="0" size="20" family="ABCDEF+Serif-Bold"/>' +
      '<fontspec id="1" size="11" family="Serif"/><text top="80" left="72" width="200" height="24" font="0">Title &amp; more</text>' +
      '<text top="110" left="72" width="300" height="13" font="1">Body <b>with one bold</b> phrase</text></page>' +
      '<page number="2" height="792" width="612"><text top="80" left="72" width="100" height="13" font="1"><b>All bold</b></text>' +
      '<image top="200" left="100" width="50" height="40" src="x.png"/></page></pdf2xml>';
    const pages = parseLayoutXml(xml);
    expect(pages[0]!.texts.map((t) => [t.text, t.size, t.font, t.bold])).toEqual([
      ['Title & more', 20, 'Serif-Bold', true],
      ['Body with one bold phrase', 11, 'Serif', false],
    ]);
    expect(pages[1]!.texts[0]).toMatchObject({ text: 'All bold', size: 11, bold: true });
    expect(pages[1]!.images).toEqual([{ x: 100, y: 200, width: 50, height: 40 }]);
  });
});

describe('reading order', () => {
  const piece = (l: LayoutText) => ({ box: boxOf([l]), text: l.text, item: l });

  it('three columns under a title: each column top to bottom, left to right', () => {
    const lines = [line('A title that spans the three columns of this page', 50, 40, { width: 500, size: 18 })];
    for (let i = 0; i < 5; i++) {
      lines.push(line(`first column ${i}`, 50, 80 + i * 14, { width: 150 }));
      lines.push(line(`second column ${i}`, 220, 84 + i * 14, { width: 150 }));
      lines.push(line(`third column ${i}`, 390, 80 + i * 14, { width: 150 }));
    }
    const runs = readingOrder(lines.map(piece), 10);
    expect(runs.flat().map((p) => p.text)).toEqual([
      lines[0]!.text,
      ...[0, 1, 2, 3, 4].map((i) => `first column ${i}`),
      ...[0, 1, 2, 3, 4].map((i) => `second column ${i}`),
      ...[0, 1, 2, 3, 4].map((i) => `third column ${i}`),
    ]);
  });

  it('bullets printed apart from their text are not a column', () => {
    const lines = [0, 1, 2].flatMap((i) => [
      line('•', 60, 100 + i * 14, { width: 4 }),
      line(`an item of the list number ${i}`, 80, 100 + i * 14, { width: 150 }),
    ]);
    expect(readingOrder(lines.map(piece), 10)).toHaveLength(1);
  });
});

describe('tables', () => {
  it('rows of short cells in the same columns are a table; two columns of prose are not', () => {
    const rows = [
      ['Name', 'Qty', 'Price'],
      ['Bolt', '12', '0.40'],
      ['Nut', '30', '0.10'],
    ];
    const cells = rows.flatMap((r, i) => r.map((c, j) => line(c, 72 + j * 120, 100 + i * 20, { width: 40 })));
    const { tables, rest } = findTables(1, stripsOf(cells));
    expect(rest).toHaveLength(0);
    expect(tables[0]!.rows.map((r) => r.cells.map((c) => c.text))).toEqual(rows);

    const prose = [0, 1, 2].flatMap((i) => [
      line('the left column holds a long line of running prose', 72, 100 + i * 14, { width: 230 }),
      line('and so does the right column beside it on the page', 320, 100 + i * 14, { width: 230 }),
    ]);
    expect(findTables(1, stripsOf(prose)).tables).toHaveLength(0);
  });
});

describe('blocks and Markdown', () => {
  it('heading levels by size rank, bold short lines as the next level, list nesting by indent, hyphens joined', () => {
    const lines = [
      line('Big title', 72, 40, { size: 24, height: 28 }),
      line('Section', 72, 80, { size: 16, height: 19 }),
      line('A bold run-in heading', 72, 110, { bold: true }),
      line('A paragraph that is hyph-', 72, 130),
      line('enated across two lines.', 72, 143),
      line('1. first', 90, 170),
      line('a) nested', 110, 184),
      line('2. second', 90, 198),
      ...Array.from({ length: 5 }, (_, i) => line('body text to make eleven points the body size', 72, 230 + i * 14)),
    ];
    const scale = scaleOf(lines);
    expect(scale).toEqual({ body: 11, headings: [24, 16] });
    const blocks = blocksOf(1, lines, scale);
    expect(blocks.slice(0, 7).map((b) => [b.type, b.text, 'level' in b ? b.level : undefined])).toEqual([
      ['heading', 'Big title', 1],
      ['heading', 'Section', 2],
      ['heading', 'A bold run-in heading', 3],
      ['paragraph', 'A paragraph that is hyphenated across two lines.', undefined],
      ['list-item', 'first', 0],
      ['list-item', 'nested', 1],
      ['list-item', 'second', 0],
    ]);
    const md = toMarkdown([{ page: 1, width: 612, height: 792, ocr: false, blocks: blocks.slice(0, 7) }]);
    expect(md).toBe(
      '<!-- page 1 -->\n\n# Big title\n\n## Section\n\n### A bold run-in heading\n\n' +
        'A paragraph that is hyphenated across two lines.\n\n1. first\n    1. nested\n2. second\n',
    );
  });
});

describe('tables with wrapped cells', () => {
  it('a cell whose text wraps: its lines under the row join that cell; the prose after the table stays out', () => {
    const row = (cells: string[], y: number) => cells.map((c, j) => line(c, 72 + j * 120, y, { width: 60 }));
    const lines = [
      ...row(['Site', 'Depth'], 100),
      ...row(['Delta Marsh by', '61.0'], 120),
      line('the ferry', 72, 133, { width: 45 }),
      ...row(['Cedar Lake', '55.8'], 155),
      line('A paragraph after the table, set across the width of the text.', 72, 190, { width: 330 }),
    ];
    const { tables, rest } = findTables(1, stripsOf(lines));
    expect(tables[0]!.rows.map((r) => r.cells.map((c) => c.text))).toEqual([
      ['Site', 'Depth'],
      ['Delta Marsh by the ferry', '61.0'],
      ['Cedar Lake', '55.8'],
    ]);
    expect(tables[0]!.rows[1]!.cells[0]!.box.height).toBeGreaterThan(20);
    expect(rest.flatMap((s) => s.lines.map((l) => l.text))).toEqual([lines.at(-1)!.text]);
  });
});

describe('Markdown lists', () => {
  it('a numbered list right after a bulleted one counts from 1', () => {
    const item = (text: string, ordered: boolean, y: number) => ({
      type: 'list-item' as const,
      page: 1,
      box: { x: 72, y, width: 100, height: 12 },
      text,
      font: 'Body',
      size: 11,
      bold: false,
      level: 0,
      marker: ordered ? '1.' : '•',
      ordered,
    });
    const blocks = [
      item('dot one', false, 100),
      item('dot two', false, 114),
      item('num one', true, 128),
      item('num two', true, 142),
    ];
    expect(toMarkdown([{ page: 1, width: 612, height: 792, ocr: false, blocks }])).toBe(
      '<!-- page 1 -->\n\n- dot one\n- dot two\n1. num one\n2. num two\n',
    );
  });
});

describe('markers printed apart', () => {
  it('a bullet printed apart from its text (a tab, OCR) still makes a list item, nested by the marker position', () => {
    const lines = [
      line('•', 90, 100, { width: 4 }),
      line('outer item', 110, 100),
      line('◦', 120, 114, { width: 4 }),
      line('inner item', 140, 114),
      ...Array.from({ length: 3 }, (_, i) => line('body text sets the body size of this page', 72, 140 + i * 14)),
    ];
    const blocks = blocksOf(1, lines, scaleOf(lines));
    expect(blocks.slice(0, 2).map((b) => [b.type, b.text, 'level' in b ? b.level : undefined])).toEqual([
      ['list-item', 'outer item', 0],
      ['list-item', 'inner item', 1],
    ]);
  });
});

describe('bullets drawn as shapes', () => {
  /** A white page of `w` × `h` points at 2 pixels a point, with dark rectangles (in points) painted on it. */
  const page = (w: number, h: number, marks: Array<[number, number, number, number]>) => {
    const s = 2;
    const g = { width: w * s, height: h * s, pixels: Buffer.alloc(w * s * h * s, 255) };
    for (const [x, y, mw, mh] of marks)
      for (let py = y * s; py < (y + mh) * s; py++) g.pixels.fill(0, py * g.width + x * s, py * g.width + (x + mw) * s);
    return g;
  };
  const margin = line('A paragraph at the margin of the page', 40, 100);
  const item = line('An item drawn without its bullet', 70, 120);

  it('a small mark centred left of an indented line makes it a bullet line starting at the mark', () => {
    expect(markerCandidates([margin, item])).toEqual([item]);
    const g = page(300, 200, [[60, 124, 4, 4]]);
    const got = withDrawnMarker(g, item, 2, 2);
    expect(got).toMatchObject({ text: '▪ An item drawn without its bullet', x: 60 });
    expect(blocksOf(1, [margin, got], scaleOf([margin, got])).map((b) => [b.type, b.text])).toEqual([
      ['paragraph', margin.text],
      ['list-item', item.text],
    ]);
  });

  it('no mark, two marks, a mark too large or off the line: the line is left as it is', () => {
    for (const marks of [
      [],
      [
        [56, 124, 3, 3],
        [62, 124, 3, 3],
      ],
      [[55, 120, 12, 12]],
      [[60, 133, 4, 4]],
    ] as Array<Array<[number, number, number, number]>>)
      expect(withDrawnMarker(page(300, 200, marks), item, 2, 2)).toBe(item);
  });

  it('a line with text just left of it (a table cell, a second column) or a printed marker is no candidate', () => {
    const cell = line('Qty', 45, 120, { width: 18 });
    const printed = line('• A printed bullet', 70, 140);
    expect(markerCandidates([margin, cell, item, printed])).toEqual([]);
  });
});
