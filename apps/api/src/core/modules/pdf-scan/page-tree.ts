import { aborted } from '../../limiter';
import type { PdfDocument } from './document';
import { giveUp, limits } from './limits';
import { isDict, Ref, type PdfDict, type PdfValue } from './objects';

export interface PageTreeVisitor<T> {
  /** What a node hands down to its kids, from what its parent handed down (inherited page attributes). Reads only. */
  enter(inherited: T, node: PdfDict): T;
  /** Each page in document order, `n` 1-based, once every read of its step has succeeded. */
  page?(state: T, n: number): void;
}

export interface PageTreeWalk {
  /** Pages found: all of them, unless `stopped`. */
  pages: number;
  /** The walk stopped with more than `stopAfter` pages found and nodes still unvisited. */
  stopped: boolean;
  /** The root's /Count, resolved, as written. */
  declared: PdfValue | undefined;
}

/** Nodes between two yields to the event loop: a huge tree must not hold the server. */
const NODES_PER_SLICE = 4096;

/**
 * Walk the page tree from the catalog's /Pages, depth first, kids in order, without recursion. A page is a node
 * without /Kids (what both qpdf and poppler count); /Count is never used to navigate. A node reached twice (a cycle
 * or a shared page), a page that has /Kids (the tools disagree on it), or anything but a dictionary gives up.
 */
export async function walkPageTree<T>(
  doc: PdfDocument,
  visitor: PageTreeVisitor<T>,
  initial: T,
  opts: { stopAfter?: number; signal?: AbortSignal } = {},
): Promise<PageTreeWalk> {
  if (opts.signal?.aborted) throw aborted();
  const walker = await doc.step(() => new TreeWalker(doc, visitor, initial, opts.stopAfter));
  for (;;) {
    await doc.step(() => walker.run(NODES_PER_SLICE));
    if (walker.done) return walker.result();
    await new Promise<void>((resolve) => setImmediate(resolve));
    if (opts.signal?.aborted) throw aborted();
  }
}

interface Frame<T> {
  kids: PdfValue[];
  next: number;
  state: T;
}

/**
 * The walk as a resumable loop: each step reads first and changes its state only when every read has succeeded, so
 * that a step interrupted by NeedBytes runs again from its start once the bytes are loaded.
 */
class TreeWalker<T> {
  private readonly stack: Array<Frame<T>>;
  private readonly seen = new Set<number>();
  private readonly declared: PdfValue | undefined;
  private pages = 0;
  private nodes = 1;
  private stopped = false;

  constructor(
    private readonly doc: PdfDocument,
    private readonly visitor: PageTreeVisitor<T>,
    initial: T,
    private readonly stopAfter: number | undefined,
  ) {
    const catalog = doc.resolve(doc.trailer.get('Root'));
    if (!isDict(catalog)) throw giveUp('no document catalog');
    const ref = catalog.get('Pages');
    const root = doc.resolve(ref);
    if (!isDict(root) || !root.has('Kids')) throw giveUp('no page tree');
    this.declared = doc.resolve(root.get('Count'));
    this.stack = [{ kids: this.kidsOf(root), next: 0, state: visitor.enter(initial, root) }];
    if (ref instanceof Ref) this.seen.add(ref.num);
  }

  get done(): boolean {
    return this.stopped || this.stack.length === 0;
  }

  result(): PageTreeWalk {
    return { pages: this.pages, stopped: this.stopped, declared: this.declared };
  }

  run(steps: number): void {
    for (let i = 0; i < steps && !this.done; i++) this.step();
  }

  private step(): void {
    const top = this.stack[this.stack.length - 1]!;
    if (top.next >= top.kids.length) {
      this.stack.pop();
      return;
    }
    if (this.stopAfter !== undefined && this.pages > this.stopAfter) {
      this.stopped = true;
      return;
    }
    const ref = top.kids[top.next];
    if (ref instanceof Ref && this.seen.has(ref.num))
      throw giveUp('page tree node reached twice (a cycle or a shared node)');
    const kid = this.doc.resolve(ref);
    if (!isDict(kid)) throw giveUp('page tree node is not a dictionary');
    const state = this.visitor.enter(top.state, kid);
    const kids = kid.has('Kids') ? this.kidsOf(kid) : null;
    // Every read of the step has succeeded: from here on it changes the walk.
    top.next++;
    if (ref instanceof Ref) this.seen.add(ref.num);
    if (++this.nodes > limits.pageTreeNodes) throw giveUp('page tree larger than the limit');
    if (!kids) {
      this.pages++;
      this.visitor.page?.(state, this.pages);
      return;
    }
    if (kid.get('Type') === 'Page') throw giveUp('a page with /Kids');
    if (this.stack.length >= limits.depth) throw giveUp('page tree deeper than the limit');
    this.stack.push({ kids, next: 0, state });
  }

  private kidsOf(node: PdfDict): PdfValue[] {
    const kids = this.doc.resolve(node.get('Kids'));
    if (!Array.isArray(kids)) throw giveUp('/Kids is not an array');
    return kids;
  }
}
