import { readFile, writeFile } from 'node:fs/promises';
import { PDFDocument, PDFName } from 'pdf-lib';
import { parseContent, serialize, writeOperation, type Operation } from '../pdf/redact/content-lexer';
import { pageContentBytes } from '../pdf/redact/content-redactor';

/** Operators that show text, each drawn in the current text rendering mode. */
const SHOWS = new Set(['Tj', 'TJ', "'", '"']);
/** Text rendering mode 3: neither filled nor stroked, the mode of an OCR layer. */
const INVISIBLE = 3;

export type PageText = 'none' | 'invisible' | 'visible';

/** What a page's own content shows: no text, only invisible text (an earlier OCR layer), or some visible text. */
export function pageText(ops: Operation[]): PageText {
  let mode = 0;
  const saved: number[] = [];
  let seen: PageText = 'none';
  for (const op of ops) {
    if (op.operator === 'q') saved.push(mode);
    else if (op.operator === 'Q') mode = saved.pop() ?? 0;
    else if (op.operator === 'Tr') {
      const v = op.operands[0];
      mode = v?.kind === 'number' ? v.value : 0;
    } else if (SHOWS.has(op.operator)) {
      if (mode !== INVISIBLE) return 'visible';
      seen = 'invisible';
    }
  }
  return seen;
}

/**
 * The same operations without the text shown invisibly: each such show is dropped, what it did besides showing (the
 * line move of ' and ", the spacings " sets) is kept, so the rest of the page is drawn as before.
 */
export function withoutInvisibleText(ops: Operation[]): string[] {
  let mode = 0;
  const saved: number[] = [];
  const out: string[] = [];
  for (const op of ops) {
    if (op.operator === 'q') saved.push(mode);
    else if (op.operator === 'Q') mode = saved.pop() ?? 0;
    else if (op.operator === 'Tr') mode = op.operands[0]?.kind === 'number' ? op.operands[0].value : 0;
    if (!SHOWS.has(op.operator) || mode !== INVISIBLE) {
      out.push(op.source);
      continue;
    }
    if (op.operator === "'") out.push('T*');
    else if (op.operator === '"') {
      const [aw, ac] = op.operands;
      if (aw && ac) out.push(writeOperation('Tw', [aw]), writeOperation('Tc', [ac]));
      out.push('T*');
    }
  }
  return out;
}

/**
 * OCRmyPDF's redo-ocr, for the pages asked: a page whose own text is all invisible (an earlier OCR layer) loses that
 * text and is to be OCR-ed again; a page with visible text is kept as it is. Writes the PDF with those layers taken
 * out to `output` when there was any, and says which pages are which.
 */
export async function stripOcrLayers(
  input: string,
  output: string,
  pages: number[],
): Promise<{ path: string; redo: number[]; visible: number[] }> {
  const doc = await PDFDocument.load(await readFile(input), { updateMetadata: false });
  const redo: number[] = [];
  const visible: number[] = [];
  for (const n of pages) {
    const page = doc.getPage(n - 1);
    let ops: Operation[];
    try {
      ops = parseContent(pageContentBytes(page.node.get(PDFName.of('Contents')), doc));
    } catch {
      // Content this reader cannot follow is not rewritten: the page is kept as it is.
      visible.push(n);
      continue;
    }
    const kind = pageText(ops);
    // Text that pdftotext finds while the page's own content shows none is drawn by a form: left alone.
    if (kind !== 'invisible') {
      visible.push(n);
      continue;
    }
    page.node.set(
      PDFName.of('Contents'),
      doc.context.register(doc.context.flateStream(serialize(withoutInvisibleText(ops)))),
    );
    redo.push(n);
  }
  if (!redo.length) return { path: input, redo, visible };
  await writeFile(output, await doc.save({ updateFieldAppearances: false }));
  return { path: output, redo, visible };
}
