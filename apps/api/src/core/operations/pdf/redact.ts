import { readFile, writeFile } from 'node:fs/promises';
import { PDFDict, PDFDocument, PDFName, StandardFonts, rgb, type PDFRef } from 'pdf-lib';
import { EngineError } from '../../errors';
import { parsePageSet } from '../../pages';
import { boxesFor } from './page-boxes';
import { out, type OutputFile, type PdfJob, type PreparedPdf } from './job';
import { removeAnnotations, pruneFields } from './redact/annotations';
import { checkAreas, parseAreas } from './redact/areas';
import { ContentSyntaxError } from './redact/content-lexer';
import { pageContentBytes, redactContent, type RedactionTally } from './redact/content-redactor';
import { IDENTITY } from './redact/geometry';
import type { Rgb } from './redact/images';
import { drawLabel } from './redact/label';
import { compileQuery, matcher } from './redact/locate';
import { assertTextRemoved, findTargets, type PageRedactions } from './redact/targets';
import { dropUnreferenced } from './redact/unreferenced';
import { hiddenLayers, scrubDocument, type ScrubTally } from './redact/scrub';

export interface RedactOptions {
  /** Text to find: literal, or a regular expression with `regex`. */
  text?: string;
  regex: boolean;
  caseSensitive: boolean;
  wholeWords: boolean;
  /** "page:x,y,width,height;…" in pt, origin the bottom-left corner of the page as shown. */
  areas?: string;
  /** Pages searched for `text` (areas name their own page). */
  pages?: string;
  /** Read pages without a text layer (scans) with OCR, so `text` is found on them too. */
  ocr: boolean;
  /** Tesseract languages for `ocr`, joined by "+". */
  languages: string;
  color: string;
  label?: string;
  scrub: boolean;
}

export interface RedactionReport extends RedactionTally {
  matches: number;
  /** Pages read by OCR (with `ocr`: those searched that had no text layer). */
  ocrPages?: number;
  pages: PageRedactions[];
  annotationsRemoved: number;
  scrubbed?: ScrubTally & { hiddenLayers: number };
}

export interface RedactResult extends OutputFile {
  report: RedactionReport;
}

/** An answer header stays well under what HTTP clients accept (Node's: 16 KB for all headers together). */
const MAX_HEADER_CHARS = 8000;

/**
 * The report as the X-Redactions header: JSON, with the per-page list cut short (and `"pagesTruncated": true`) when
 * it would not fit; the totals are always whole.
 */
export function redactionHeader(report: RedactionReport): string {
  const whole = JSON.stringify(report);
  if (whole.length <= MAX_HEADER_CHARS) return whole;
  const pages = [...report.pages];
  let cut = JSON.stringify({ ...report, pages, pagesTruncated: true });
  while (cut.length > MAX_HEADER_CHARS && pages.length) {
    pages.splice(Math.floor(pages.length / 2));
    cut = JSON.stringify({ ...report, pages, pagesTruncated: true });
  }
  return cut;
}

const rgbOf = (hex: string): Rgb => {
  const h = hex.length === 4 ? [...hex.slice(1)].map((c) => c + c).join('') : hex.slice(1);
  return [0, 2, 4].map((k) => parseInt(h.slice(k, k + 2), 16)) as Rgb;
};

/**
 * Redact: find the text (pdftotext's word boxes) and take the areas given, then remove what lies under them from
 * the file itself (glyphs out of the content streams, image pixels repainted, annotations and form widgets
 * dropped), paint the fill over them, and optionally scrub what the document carries beside its pages.
 */
export async function redactPdf(job: PdfJob, input: PreparedPdf, o: RedactOptions): Promise<RedactResult> {
  const areas = parseAreas(o.areas);
  const search = o.text ? matcher(compileQuery({ ...o, text: o.text })) : undefined;
  const fill = rgbOf(o.color);
  const boxes = await boxesFor(job, input, parsePageSet('all', input.pages, 'pages'));
  checkAreas(areas, boxes);
  const boxOf = (page: number) => boxes.find((b) => b.page === page)!;

  const { cover, cut, pages, ocrRead } = await findTargets(job, input, o, areas, boxOf, search);

  const doc = await PDFDocument.load(await readFile(input.path), { updateMetadata: false });
  const font = o.label ? await doc.embedFont(StandardFonts.HelveticaBold) : undefined;
  if (o.label && font) {
    try {
      font.encodeText(o.label);
    } catch {
      throw new EngineError('INVALID_INPUT', 'label: use characters of the Latin-1 (WinAnsi) set', {
        details: { field: 'label' },
      });
    }
  }
  const tally: RedactionTally = { glyphs: 0, imagesPainted: 0, imagesRemoved: 0, hiddenContent: 0 };
  const hidden = o.scrub ? hiddenLayers(doc) : new Set<PDFDict>();
  let annotationsRemoved = 0;
  const widgets = new Set<PDFRef>();
  const docPages = doc.getPages();
  // With hidden layers to scrub, every page is rewritten; else only the pages with something to redact.
  const touched = hidden.size ? docPages.map((_, k) => k + 1) : [...cover.keys()];
  for (const pageNo of touched) {
    const page = docPages[pageNo - 1]!;
    const rects = cover.get(pageNo) ?? [];
    const removal = cut.get(pageNo) ?? [];
    const resources = page.node.Resources();
    try {
      const rewritten = await redactContent(
        { doc, areas: removal, fill, tally, hidden },
        pageContentBytes(page.node.get(PDFName.of('Contents')), doc),
        resources instanceof PDFDict ? resources : undefined,
        IDENTITY,
      );
      if (rewritten) page.node.set(PDFName.of('Contents'), doc.context.register(doc.context.flateStream(rewritten)));
    } catch (err) {
      if (!(err instanceof ContentSyntaxError)) throw err;
      throw new EngineError(
        'INVALID_PDF',
        `file: the drawing instructions of page ${pageNo} cannot be read (${err.message}); nothing was redacted`,
        { details: { field: 'file', page: pageNo } },
      );
    }
    const gone = removeAnnotations(page, removal);
    annotationsRemoved += gone.removed;
    for (const r of gone.refs) widgets.add(r);
    for (const r of rects)
      page.drawRectangle({ ...r, color: rgb(fill[0] / 255, fill[1] / 255, fill[2] / 255), borderWidth: 0 });
    if (font && o.label) for (const r of rects) drawLabel(page, font, o.label, r, boxOf(pageNo).rotate, fill);
  }
  pruneFields(doc, widgets);
  const scrubbed = o.scrub ? { ...scrubDocument(doc), hiddenLayers: hidden.size } : undefined;
  dropUnreferenced(doc);

  const file = out(job, 'redacted.pdf');
  await writeFile(file, await doc.save({ useObjectStreams: false }));
  if (search && !(o.label && search(o.label).length)) {
    const checked = [...pages.values()].filter((p) => p.matches && !ocrRead.has(p.page)).map((p) => p.page);
    await assertTextRemoved(job, file, checked, boxOf, search, cover);
  }
  const listed = [...pages.values()].sort((a, b) => a.page - b.page);
  return {
    path: file,
    name: 'redacted',
    pages: input.pages,
    report: {
      matches: listed.reduce((n, p) => n + p.matches, 0),
      ...(o.ocr ? { ocrPages: ocrRead.size } : {}),
      pages: listed,
      ...tally,
      annotationsRemoved,
      ...(scrubbed ? { scrubbed } : {}),
    },
  };
}
