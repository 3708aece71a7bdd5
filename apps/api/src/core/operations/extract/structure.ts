import type { PdfJob, PreparedPdf } from '../pdf/job';
import { blocksOf, scaleOf } from './blocks';
import { withDrawnMarkers } from './drawn-markers';
import { boxOf, round2, type Block, type ImageBlock, type Line, type StructuredPage } from './model';
import { readPages, type ReadOptions } from './read-pages';
import { readingOrder } from './reading-order';
import { stripsOf } from './strips';
import { findTables } from './find-tables';

/**
 * A PDF as structured pages: tables found first (their cells would otherwise look like columns), then the reading
 * order of lines, tables and images, then headings, lists and paragraphs along it.
 */
export async function structurePdf(job: PdfJob, pdf: PreparedPdf, o: ReadOptions): Promise<StructuredPage[]> {
  const pages = await withDrawnMarkers(job, pdf, await readPages(job, pdf, o));
  // One scale for the document: a page of only headings must not take them for body text. OCR pages have their own
  // (their sizes are measured from pixels, not read from fonts).
  const printed = scaleOf(pages.filter((p) => !p.ocr).flatMap((p) => p.texts));
  return pages.map((p) => {
    const scale = p.ocr ? { ...scaleOf(p.texts), ocr: true } : printed;
    const { tables, rest } = findTables(p.page, stripsOf(p.texts));
    const images: ImageBlock[] = p.images
      .filter((im) => im.width >= 8 && im.height >= 8)
      .map((im, i) => ({ type: 'image', page: p.page, box: im, text: '', id: `p${p.page}-${i + 1}` }));
    type Item = Line | Block;
    const pieces = [
      ...rest.flatMap((s) => s.lines).map((l) => ({ box: boxOf([l]), text: l.text, item: l as Item })),
      ...tables.map((t) => ({ box: t.box, text: t.text, item: t as Item })),
      ...images.map((im) => ({ box: im.box, text: 'image', item: im as Item })),
    ];
    const runs = readingOrder(pieces, Math.max(8, scale.body * 0.9));
    const blocks = runs.flatMap((run) =>
      blocksOf(
        p.page,
        run.map((r) => r.item),
        scale,
      ),
    );
    return { page: p.page, width: p.width, height: p.height, ocr: p.ocr, blocks: blocks.map(rounded) };
  });
}

function rounded(b: Block): Block {
  if (b.type === 'table') {
    return {
      ...b,
      box: round2(b.box),
      rows: b.rows.map((r) => ({ box: round2(r.box), cells: r.cells.map((c) => ({ ...c, box: round2(c.box) })) })),
    };
  }
  return { ...b, box: round2(b.box) };
}
