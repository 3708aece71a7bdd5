import { unsupported, type EngineError } from '../../errors';

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

/** The one way this module fails: the chain moves on to an engine that may do better. */
export const giveUp = (why: string): EngineError => unsupported(`pdf-scan: ${why}`, 'pdf-scan');

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
