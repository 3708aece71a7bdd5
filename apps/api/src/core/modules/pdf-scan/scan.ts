import type { PageBox, PageCount } from '../../operations/pdf/interfaces';
import { inheritAttrs, pageBox, rootAttrs, type PageAttrs } from './boxes';
import { measureContent, type ContentSize } from './content-size';
import { PdfDocument } from './document';
import { treeKeys, type KeySet } from './keys';
import { declineUnforeseen, giveUp } from './limits';
import { walkPageTree } from './page-tree';
import type { PdfDict, PdfValue } from './objects';

/** Open, use, close; anything unforeseen (a bug included) becomes a fallback to the tools, never a failed request. */
function withDocument<R>(path: string, use: (doc: PdfDocument) => Promise<R>, keys?: KeySet): Promise<R> {
  return declineUnforeseen(async () => {
    const doc = await PdfDocument.open(path, keys);
    try {
      return await use(doc);
    } finally {
      await doc.close();
    }
  });
}

function declaredCount(v: PdfValue | undefined): number {
  // Without a usable /Count, poppler finds no pages while qpdf walks the tree: the tools keep that case.
  if (typeof v !== 'number' || v < 0) throw giveUp('page tree /Count is not a count');
  return v;
}

/** The real number of pages, from the page tree's leaves; stops once it has found more than `stopAfter`. */
export async function countPages(path: string, opts: { stopAfter?: number }, signal?: AbortSignal): Promise<PageCount> {
  return withDocument(
    path,
    async (doc) => {
      const walk = await walkPageTree(doc, { enter: () => undefined }, undefined, {
        stopAfter: opts.stopAfter,
        signal,
      });
      if (walk.stopped) return { pages: walk.pages, encrypted: false, atLeast: true };
      if (walk.pages === 0) throw giveUp('no pages');
      const declared = declaredCount(walk.declared);
      return declared === walk.pages
        ? { pages: walk.pages, encrypted: false }
        : { pages: walk.pages, encrypted: false, declaredPages: declared };
    },
    treeKeys,
  );
}

/** The visible box and rotation of pages 1..`pages` (all when not given), as the poppler engine reports them. */
export async function pageBoxes(path: string, opts: { pages?: number }, signal?: AbortSignal): Promise<PageBox[]> {
  if (opts.pages === 0) return [];
  return withDocument(path, async (doc) => {
    const boxes: PageBox[] = [];
    const visitor = {
      enter: (inherited: PageAttrs, node: PdfDict) => inheritAttrs(doc, inherited, node),
      page: (attrs: PageAttrs, n: number) => {
        if (opts.pages === undefined || n <= opts.pages) boxes.push(pageBox(attrs, n));
      },
    };
    const walk = await walkPageTree(doc, visitor, rootAttrs, { signal });
    // poppler numbers pages by /Count: where it disagrees with the tree, only poppler gives poppler's answer.
    if (walk.pages === 0 || declaredCount(walk.declared) !== walk.pages)
      throw giveUp('page tree /Count disagrees with its pages');
    return boxes;
  });
}

/**
 * The decoded size of the pages' content, measured up to the bounds of `contentLimits` (content-size.ts); with
 * `exact: false`, upper bounds when those are enough to tell. Declines (UNSUPPORTED_OPERATION) what the scan cannot
 * read: encrypted, damaged or unusual files.
 */
export async function pageContentSize(
  path: string,
  signal?: AbortSignal,
  opts: { exact?: boolean } = {},
): Promise<ContentSize> {
  return withDocument(path, (doc) => measureContent(doc, signal, opts));
}
