import { PDFHexString, PDFName, type PDFDocument, type PDFRef } from 'pdf-lib';
import type { Bookmark } from '../../operations/pdf/interfaces';

/**
 * Write `bookmarks` as the document's outline, replacing any outline it had: each entry opens its page at the
 * reader's current zoom (/XYZ with no position), every level shown open.
 */
export function setOutline(doc: PDFDocument, bookmarks: Bookmark[]): void {
  const context = doc.context;
  const pages = doc.getPages();
  const shown = (items: Bookmark[]): number => items.reduce((n, b) => n + 1 + shown(b.children ?? []), 0);

  /** The entries of one level under `parent`: first and last, linked to each other. */
  const level = (items: Bookmark[], parent: PDFRef): { first: PDFRef; last: PDFRef } => {
    const refs = items.map(() => context.nextRef());
    items.forEach((b, i) => {
      const dict = context.obj({
        Parent: parent,
        ...(i > 0 ? { Prev: refs[i - 1] } : {}),
        ...(i < items.length - 1 ? { Next: refs[i + 1] } : {}),
        ...(b.page >= 1 ? { Dest: [pages[b.page - 1]!.ref, 'XYZ', null, null, null] } : {}),
      });
      dict.set(PDFName.of('Title'), PDFHexString.fromText(b.title));
      const children = b.children ?? [];
      if (children.length) {
        const { first, last } = level(children, refs[i]!);
        dict.set(PDFName.of('First'), first);
        dict.set(PDFName.of('Last'), last);
        dict.set(PDFName.of('Count'), context.obj(shown(children)));
      }
      context.assign(refs[i]!, dict);
    });
    return { first: refs[0]!, last: refs[refs.length - 1]! };
  };

  if (!bookmarks.length) {
    doc.catalog.delete(PDFName.of('Outlines'));
    return;
  }
  const root = context.nextRef();
  const { first, last } = level(bookmarks, root);
  context.assign(root, context.obj({ Type: 'Outlines', First: first, Last: last, Count: shown(bookmarks) }));
  doc.catalog.set(PDFName.of('Outlines'), root);
}
