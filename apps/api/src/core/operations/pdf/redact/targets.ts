import { EngineError } from '../../../errors';
import type { PageBox, TextWord } from '../interfaces';
import { parsePageSet } from '../../../pages';
import type { PdfJob, PreparedPdf } from '../job';
import { toPageSpace } from '../crop';
import type { PageArea } from './areas';
import type { Rect } from './geometry';
import { locateMatches } from './locate';
import { ocrWords } from './ocr-words';

export interface PageRedactions {
  page: number;
  /** Matches of `text` on the page. */
  matches: number;
  /** Areas given for the page. */
  areas: number;
}

export interface Targets {
  /** Per page, in page space: the rectangles painted over, and those that take glyphs out (a little inside). */
  cover: Map<number, Rect[]>;
  cut: Map<number, Rect[]>;
  pages: Map<number, PageRedactions>;
  /** Pages whose words came from OCR. */
  ocrRead: Set<number>;
}

export type Search = (s: string) => Array<[number, number]>;

/** pdftotext's word boxes are placed on the page as shown, origin top-left (its <page> size is the unturned one). */
const wordToPage = (b: PageBox) => {
  const shownHeight = b.rotate === 90 || b.rotate === 270 ? b.width : b.height;
  return (w: TextWord) =>
    toPageSpace(b, { x: w.xMin, y: shownHeight - w.yMax, width: w.xMax - w.xMin, height: w.yMax - w.yMin });
};

const inside = (outer: Rect, r: Rect, slack = 1) =>
  r.x >= outer.x - slack &&
  r.y >= outer.y - slack &&
  r.x + r.width <= outer.x + outer.width + slack &&
  r.y + r.height <= outer.y + outer.height + slack;

/**
 * Read the answer back: a match still found where one was redacted means its glyphs were not taken out (a font or
 * construct whose glyph positions could not be worked out), and the file would only hide the text under the fill.
 * Such a file is not answered. (Text that only comes to match once its neighbours are gone lies partly outside the
 * redacted boxes and is not a failure.)
 */
export async function assertTextRemoved(
  job: PdfJob,
  file: string,
  pages: number[],
  boxOf: (page: number) => PageBox,
  search: Search,
  cover: Map<number, Rect[]>,
): Promise<void> {
  if (!pages.length) return;
  const { value: texts } = await job.engines.run(
    'extractText',
    (f) => f(file, { pages, layout: false, words: true }, job.ctx),
    job.signal,
  );
  const failed = texts.filter((t) =>
    locateMatches(t.words ?? [], wordToPage(boxOf(t.page)), search).some((m) =>
      m.cuts.every((c) => (cover.get(t.page) ?? []).some((r) => inside(r, c))),
    ),
  );
  if (failed.length) {
    const list = failed.map((t) => t.page);
    throw new EngineError(
      'DOCUMENT_TOO_COMPLEX',
      `text: matches on page ${list.join(', ')} could not be taken out of the drawing instructions (a font or construct this redaction cannot place glyphs of); no file is answered rather than one where the text is only covered`,
      { details: { field: 'text', pages: list } },
    );
  }
}

/** What to redact on which page: the areas given, and the matches of the search in the text layer (or OCR). */
export async function findTargets(
  job: PdfJob,
  input: PreparedPdf,
  o: { pages?: string; ocr: boolean; languages: string },
  areas: PageArea[],
  boxOf: (page: number) => PageBox,
  search: Search | undefined,
): Promise<Targets> {
  /** Per page: the rectangles painted over and those that take glyphs out, in page space. */
  const cover = new Map<number, Rect[]>();
  const cut = new Map<number, Rect[]>();
  const pages = new Map<number, PageRedactions>();
  const entry = (page: number) => {
    let e = pages.get(page);
    if (!e) pages.set(page, (e = { page, matches: 0, areas: 0 }));
    return e;
  };
  const add = (page: number, shown: Rect[], removal: Rect[]) => {
    if (!cover.has(page)) cover.set(page, []);
    if (!cut.has(page)) cut.set(page, []);
    cover.get(page)!.push(...shown);
    cut.get(page)!.push(...removal);
  };
  for (const a of areas) {
    const inPage = toPageSpace(boxOf(a.page), a);
    add(a.page, [inPage], [inPage]);
    entry(a.page).areas++;
  }
  const ocrRead = new Set<number>();
  if (search) {
    const searched = parsePageSet(o.pages, input.pages, 'pages');
    const { value: texts } = await job.engines.run(
      'extractText',
      (f) => f(input.path, { pages: searched, layout: false, words: true }, job.ctx),
      job.signal,
    );
    if (o.ocr) {
      const scanned = texts.filter((t) => !t.words?.length).map((t) => t.page);
      const read = await ocrWords(job, input, scanned, o.languages.split('+').filter(Boolean));
      for (const t of texts) if (read.has(t.page)) t.words = read.get(t.page);
      for (const page of read.keys()) ocrRead.add(page);
    }
    for (const t of texts) {
      const matches = locateMatches(t.words ?? [], wordToPage(boxOf(t.page)), search);
      if (!matches.length) continue;
      entry(t.page).matches += matches.length;
      for (const m of matches) add(t.page, m.covers, m.cuts);
    }
  }
  return { cover, cut, pages, ocrRead };
}
