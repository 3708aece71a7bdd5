import { EngineError, unsupported } from '../../errors';

/**
 * The bounds of one scan. It runs on the server's event loop over untrusted bytes, so every dimension a hostile
 * file controls is capped; past a cap the scan gives up and the tool engines, which run in their own limited
 * processes, take the file.
 */
export const limits = {
  /** Decoded bytes of one stream (xref streams, object streams). */
  streamBytes: 32 * 1024 * 1024,
  /** Decoded bytes of all the streams of one file. */
  fileInflateBytes: 64 * 1024 * 1024,
  /** Objects parsed, from the file or from object streams. */
  objects: 2_000_000,
  /** Highest object number the cross-reference may hold (sizes its arrays). */
  objectNumber: 2_097_152,
  /** Cross-reference sections (incremental updates) followed through /Prev. */
  xrefSections: 1000,
  /** Page tree nodes, pages included. */
  pageTreeNodes: 1_000_000,
  /** Page tree depth, and nesting of arrays and dictionaries. */
  depth: 64,
  /** Hops of a reference to a reference. */
  refHops: 32,
} as const;

/**
 * The most decoded page content a PDF may carry to be admitted for work (core/operations/pdf/job.ts), measured by
 * content-size.ts from each page's /Contents streams. Every tool (pdftoppm, Ghostscript, Tesseract's renders,
 * pdftotext) reads all of a page's operators whatever they draw: a few KB of Flate data inflating to hundreds of MB
 * holds a processing slot and a CPU until the deadline.
 *
 * - 32 MiB per page: the heaviest real pages (CAD drawings, dense maps, vector plots exported point by point) have
 *   a few MB of operators, rarely 10-20; the tools get through 32 MB of operators in a few seconds, well within the
 *   processing deadline. It is also the scan's own bound on one decoded stream (`streamBytes`).
 * - 256 MiB for the whole file: a long document of ordinary pages has tens to hundreds of KB per page (a 1000-page
 *   report of 200 KB pages is 200 MB); past that, the operators alone are more than the deadline lets a tool read.
 *   A stream shared by several pages counts once per page (each page reads it), but is inflated once.
 *
 * Measuring costs at most one inflate to the file bound (plus one page's), in zlib's thread pool.
 */
export const contentLimits = {
  pageBytes: 32 * 1024 * 1024,
  fileBytes: 256 * 1024 * 1024,
} as const;

/** The one way this module fails: the chain moves on to an engine that may do better. */
export const giveUp = (why: string): EngineError => unsupported(`pdf-scan: ${why}`, 'pdf-scan');

/** Run `work`; anything unforeseen (a bug included) becomes a fallback to the tools, never a failed request. */
export async function declineUnforeseen<R>(work: () => Promise<R>): Promise<R> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof EngineError) throw err;
    const e = giveUp(`unexpected ${err instanceof Error ? err.name : 'failure'}`);
    e.cause = err;
    throw e;
  }
}

/** What one scan has spent so far. */
export class Budget {
  private inflated = 0;
  private objects = 0;

  /** Room for the next decoded stream; gives up when the file has used its share. */
  inflateRoom(): number {
    const left = limits.fileInflateBytes - this.inflated;
    if (left <= 0) throw giveUp('decoded streams over the limit');
    return Math.min(limits.streamBytes, left);
  }

  spendInflate(bytes: number): void {
    this.inflated += bytes;
  }

  countObject(): void {
    if (++this.objects > limits.objects) throw giveUp('too many objects');
  }

  /** Streams inflated off the event loop, by digest of their raw bytes, until the step that asked takes them. */
  readonly inflatedOffLoop = new Map<string, Buffer | 'failed'>();
}
