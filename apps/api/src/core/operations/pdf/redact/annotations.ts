import { PDFArray, PDFDict, PDFName, PDFNumber, PDFRef, type PDFDocument, type PDFPage } from 'pdf-lib';
import { intersects, type Rect } from './geometry';

function rectOf(annot: PDFDict): Rect | undefined {
  const r = annot.lookup(PDFName.of('Rect'));
  if (!(r instanceof PDFArray) || r.size() !== 4) return undefined;
  const [x0, y0, x1, y1] = r.asArray().map((v) => (v instanceof PDFNumber ? v.asNumber() : 0)) as [
    number,
    number,
    number,
    number,
  ];
  return { x: Math.min(x0, x1), y: Math.min(y0, y1), width: Math.abs(x1 - x0), height: Math.abs(y1 - y0) };
}

/**
 * Take off the page the annotations (links, comments, form widgets) whose rectangle meets an area. Answers the
 * references of those removed, so the form's field tree can drop them too.
 */
export function removeAnnotations(page: PDFPage, areas: Rect[]): { removed: number; refs: Set<PDFRef> } {
  const refs = new Set<PDFRef>();
  const annots = page.node.lookup(PDFName.of('Annots'));
  if (!(annots instanceof PDFArray)) return { removed: 0, refs };
  const kept: Array<ReturnType<PDFArray['get']>> = [];
  let removed = 0;
  for (const item of annots.asArray()) {
    const annot = item instanceof PDFRef ? page.doc.context.lookup(item) : item;
    const rect = annot instanceof PDFDict ? rectOf(annot) : undefined;
    if (rect && areas.some((a) => intersects(a, rect))) {
      removed++;
      if (item instanceof PDFRef) refs.add(item);
    } else kept.push(item);
  }
  if (removed) page.node.set(PDFName.of('Annots'), page.doc.context.obj(kept));
  return { removed, refs };
}

/** Drop removed widgets from the form's fields (and their parents' kids), and fields left without widgets. */
export function pruneFields(doc: PDFDocument, gone: Set<PDFRef>): void {
  if (!gone.size) return;
  const form = doc.catalog.lookup(PDFName.of('AcroForm'));
  if (!(form instanceof PDFDict)) return;
  const prune = (list: PDFArray): PDFArray => {
    const kept = list.asArray().filter((item) => {
      if (item instanceof PDFRef && gone.has(item)) return false;
      const node = item instanceof PDFRef ? doc.context.lookup(item) : item;
      if (!(node instanceof PDFDict)) return true;
      const kids = node.lookup(PDFName.of('Kids'));
      if (!(kids instanceof PDFArray)) return true;
      const left = prune(kids);
      node.set(PDFName.of('Kids'), left);
      return left.size() > 0;
    });
    return doc.context.obj(kept);
  };
  const fields = form.lookup(PDFName.of('Fields'));
  if (fields instanceof PDFArray) form.set(PDFName.of('Fields'), prune(fields));
}
