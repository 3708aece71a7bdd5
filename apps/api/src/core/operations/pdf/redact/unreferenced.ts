import { PDFArray, PDFDict, PDFRef, PDFStream, type PDFDocument, type PDFObject } from 'pdf-lib';

/**
 * Delete every object the document no longer reaches from its trailer. pdf-lib writes all the objects it holds, so
 * without this the content streams, images and forms a redaction replaced, and the annotations, attachments and
 * scripts it removed, would still be in the file, only unreferenced: a text search of the raw file finds them.
 */
export function dropUnreferenced(doc: PDFDocument): number {
  const { context } = doc;
  const reached = new Set<PDFRef>();
  const pending: PDFObject[] = [];
  for (const k of ['Root', 'Info', 'Encrypt', 'ID'] as const) {
    const v = context.trailerInfo[k];
    if (v) pending.push(v);
  }
  while (pending.length) {
    const o = pending.pop()!;
    if (o instanceof PDFRef) {
      if (reached.has(o)) continue;
      reached.add(o);
      const target = context.lookup(o);
      if (target) pending.push(target);
    } else if (o instanceof PDFDict) {
      for (const [, v] of o.entries()) pending.push(v);
    } else if (o instanceof PDFArray) {
      pending.push(...o.asArray());
    } else if (o instanceof PDFStream) {
      pending.push(o.dict);
    }
  }
  let dropped = 0;
  let largest = 0;
  for (const [ref] of context.enumerateIndirectObjects()) {
    if (!reached.has(ref)) {
      context.delete(ref);
      dropped++;
    } else largest = Math.max(largest, ref.objectNumber);
  }
  // The trailer's /Size is one past the largest number written: readers check it against the cross-reference table.
  context.largestObjectNumber = largest;
  return dropped;
}
