import { open, type FileHandle } from 'node:fs/promises';
import { giveUp } from './limits';

/** Small files are read in one call: one read costs less than the several a scan would make. */
const WHOLE_FILE_BYTES = 1024 * 1024;
const BLOCK_BYTES = 64 * 1024;
/** 8 MiB of blocks: the tail, the xref and the page objects of a large file fit. */
const CACHED_BLOCKS = 128;
/** The largest span one read may ask for: half the cache, so that a step's other spans stay in it. */
export const MAX_SPAN_BYTES = (CACHED_BLOCKS / 2) * BLOCK_BYTES;
/** Loads one step may need; past it, its spans evict one another. */
const LOADS_PER_STEP = 64;

/** A step asked for bytes that are not in memory yet: load them and run the step again. */
export class NeedBytes extends Error {
  constructor(
    readonly pos: number,
    readonly length: number,
  ) {
    super('bytes not loaded');
  }
}

/**
 * A step asked for work too long for the event loop (inflating a large stream): do it off the loop and run the step
 * again, which then finds the result where `work` left it.
 */
export class NeedWork extends Error {
  constructor(readonly work: () => Promise<void>) {
    super('work not done yet');
  }
}

/**
 * Positional reads of one file. Parsing is synchronous (an await per object would cost as much as the parsing): it
 * takes bytes already in memory, and a step that needs others throws NeedBytes; `step()` loads them with
 * FileHandle.read and runs the step again. A small file is read whole; a large one by blocks, through an LRU
 * cache, since a scan touches a few scattered spans (the tail, xref sections, page objects).
 */
export class RandomAccessFile {
  private readonly blocks = new Map<number, Buffer>();

  private constructor(
    private readonly fh: FileHandle,
    readonly size: number,
    private readonly whole: Buffer | null,
  ) {}

  static async open(path: string): Promise<RandomAccessFile> {
    const fh = await open(path, 'r');
    try {
      const size = (await fh.stat()).size;
      if (size > WHOLE_FILE_BYTES) return new RandomAccessFile(fh, size, null);
      const whole = Buffer.allocUnsafe(size);
      const { bytesRead } = await fh.read(whole, 0, size, 0);
      return new RandomAccessFile(fh, bytesRead, whole.subarray(0, bytesRead));
    } catch (err) {
      await fh.close();
      throw err;
    }
  }

  /** Whether every byte is in memory (then no step ever waits). */
  get inMemory(): boolean {
    return this.whole !== null;
  }

  close(): Promise<void> {
    return this.fh.close();
  }

  /** Up to `length` bytes at `pos` (fewer at the end of the file), if in memory; else throws NeedBytes. Read only. */
  bytes(pos: number, length: number): Buffer {
    const end = Math.min(this.size, pos + length);
    if (pos >= end) return Buffer.alloc(0);
    if (this.whole) return this.whole.subarray(pos, end);
    if (end - pos > MAX_SPAN_BYTES) throw giveUp('span larger than the read cache');
    const first = Math.floor(pos / BLOCK_BYTES);
    const last = Math.floor((end - 1) / BLOCK_BYTES);
    const parts: Buffer[] = [];
    for (let b = first; b <= last; b++) {
      const block = this.touch(b);
      if (!block) throw new NeedBytes(pos, end - pos);
      parts.push(block);
    }
    const from = pos - first * BLOCK_BYTES;
    return (parts.length === 1 ? parts[0]! : Buffer.concat(parts)).subarray(from, from + (end - pos));
  }

  /**
   * Run `step` (which must change nothing before its reads succeed) until the bytes it reads are in memory and the
   * work it asked for (NeedWork) is done.
   */
  async step<T>(step: () => T): Promise<T> {
    for (let loads = 0; ; loads++) {
      try {
        return step();
      } catch (err) {
        if (!(err instanceof NeedBytes) && !(err instanceof NeedWork)) throw err;
        if (loads >= LOADS_PER_STEP) throw giveUp('reads do not fit the read cache');
        if (err instanceof NeedWork) await err.work();
        else await this.load(err.pos, err.length);
      }
    }
  }

  /**
   * `length` bytes at `pos`, in parts of at most `chunk` bytes, read straight from the file (not through the
   * cache): for data only streamed through (content streams measured by content-size.ts).
   */
  async *range(pos: number, length: number, chunk = 1024 * 1024): AsyncGenerator<Buffer> {
    const end = Math.min(this.size, pos + length);
    for (let at = pos; at < end; at += chunk) {
      const n = Math.min(chunk, end - at);
      if (this.whole) {
        yield this.whole.subarray(at, at + n);
        continue;
      }
      const buf = Buffer.allocUnsafe(n);
      const { bytesRead } = await this.fh.read(buf, 0, n, at);
      if (bytesRead === 0) return;
      yield buf.subarray(0, bytesRead);
    }
  }

  /** A cached block, marked as the most recently used. */
  private touch(index: number): Buffer | undefined {
    const block = this.blocks.get(index);
    if (block) {
      // A Map keeps insertion order: re-inserting makes the first key the least recently used.
      this.blocks.delete(index);
      this.blocks.set(index, block);
    }
    return block;
  }

  /** Read the blocks of a span in one call. */
  private async load(pos: number, length: number): Promise<void> {
    const first = Math.floor(pos / BLOCK_BYTES);
    const last = Math.floor((pos + length - 1) / BLOCK_BYTES);
    const start = first * BLOCK_BYTES;
    const buf = Buffer.allocUnsafe(Math.min(this.size, (last + 1) * BLOCK_BYTES) - start);
    const { bytesRead } = await this.fh.read(buf, 0, buf.length, start);
    for (let b = first; b <= last; b++) {
      const at = (b - first) * BLOCK_BYTES;
      this.blocks.delete(b);
      this.blocks.set(b, buf.subarray(at, Math.min(bytesRead, at + BLOCK_BYTES)));
    }
    while (this.blocks.size > CACHED_BLOCKS) this.blocks.delete(this.blocks.keys().next().value!);
  }
}
