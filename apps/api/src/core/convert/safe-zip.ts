import { open, type FileHandle } from 'node:fs/promises';
import { createInflateRaw } from 'node:zlib';
import { EngineError } from '../errors';

const INFLATE_CHUNK = 1 << 20;

/**
 * Inflate an entry in zlib's thread pool, not on the event loop (it may unpack to tens of MB), by 1 MB chunks copied
 * straight into a buffer of the declared size: never more than declared is produced, and no large copy or pile of
 * small chunks is left for the event loop at the end.
 */
function inflateRawExactly(data: Buffer, size: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const out = Buffer.allocUnsafe(size);
    let at = 0;
    const z = createInflateRaw({ chunkSize: INFLATE_CHUNK });
    z.on('data', (chunk: Buffer) => {
      if (at + chunk.length > size) return void z.destroy(new Error('larger than declared'));
      chunk.copy(out, at);
      at += chunk.length;
    });
    z.on('error', reject);
    z.on('end', () => (at === size ? resolve(out) : reject(new Error('smaller than declared'))));
    z.end(data);
  });
}

/**
 * A small zip reader for documents that are zips (EPUB), built to be handed hostile files: the entry count, each
 * entry's size and the total unpacked size are capped before anything is inflated, inflation itself stops at the
 * declared size (a lying header cannot make it produce more), and entry names that could leave the extraction
 * directory are refused. No ZIP64, no encryption: EPUBs use neither.
 */

export interface ZipLimits {
  maxEntries: number;
  /** Largest single entry, unpacked. */
  maxEntryBytes: number;
  /** All entries together, unpacked. */
  maxTotalBytes: number;
}
export const DEFAULT_ZIP_LIMITS: ZipLimits = { maxEntries: 5_000, maxEntryBytes: 64 << 20, maxTotalBytes: 256 << 20 };

export interface SafeZipEntry {
  /** Normalised: forward slashes, no leading slash, no `.` or `..` segments. */
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  offset: number;
  isDirectory: boolean;
}

const bad = (why: string) => new EngineError('INVALID_DOCUMENT', `The file is not a readable archive: ${why}`);

/** A safe relative path for an entry name, or null (absolute, drive letters, `..`, NUL, control characters). */
export function safeEntryName(raw: string): string | null {
  const name = raw.replace(/\\/g, '/');
  // eslint-disable-next-line no-control-regex
  if (name === '' || /[\x00-\x1f]/.test(name) || name.startsWith('/') || /^[a-zA-Z]:/.test(name)) return null;
  const parts = name.split('/').filter((p) => p !== '' && p !== '.');
  if (parts.length === 0 || parts.some((p) => p === '..')) return null;
  return parts.join('/') + (name.endsWith('/') ? '/' : '');
}

export class SafeZip {
  private used = 0;

  private constructor(
    private readonly fh: FileHandle,
    readonly entries: SafeZipEntry[],
    private readonly limits: ZipLimits,
  ) {}

  static async open(file: string, limits: ZipLimits = DEFAULT_ZIP_LIMITS): Promise<SafeZip> {
    const fh = await open(file, 'r');
    try {
      const size = (await fh.stat()).size;
      const tailLen = Math.min(size, 65_557);
      const tail = Buffer.alloc(tailLen);
      await fh.read(tail, 0, tailLen, size - tailLen);
      let eocd = -1;
      for (let i = tailLen - 22; i >= 0; i--) {
        if (tail.readUInt32LE(i) === 0x06054b50) {
          eocd = i;
          break;
        }
      }
      if (eocd < 0) throw bad('no zip directory');
      const count = tail.readUInt16LE(eocd + 10);
      const cdSize = tail.readUInt32LE(eocd + 12);
      const cdOffset = tail.readUInt32LE(eocd + 16);
      if (count === 0xffff || cdOffset === 0xffffffff) throw bad('ZIP64 archives are not supported');
      if (count > limits.maxEntries) throw bad(`more than ${limits.maxEntries} entries`);
      if (cdOffset + cdSize > size) throw bad('truncated');
      const cd = Buffer.alloc(cdSize);
      await fh.read(cd, 0, cdSize, cdOffset);
      const entries: SafeZipEntry[] = [];
      let declared = 0;
      let p = 0;
      for (let i = 0; i < count; i++) {
        if (p + 46 > cd.length || cd.readUInt32LE(p) !== 0x02014b50) throw bad('damaged directory');
        const flags = cd.readUInt16LE(p + 8);
        const method = cd.readUInt16LE(p + 10);
        const compressedSize = cd.readUInt32LE(p + 20);
        const entrySize = cd.readUInt32LE(p + 24);
        const nameLen = cd.readUInt16LE(p + 28);
        const extraLen = cd.readUInt16LE(p + 30);
        const commentLen = cd.readUInt16LE(p + 32);
        const offset = cd.readUInt32LE(p + 42);
        const raw = cd.subarray(p + 46, p + 46 + nameLen).toString('utf8');
        p += 46 + nameLen + extraLen + commentLen;
        if (flags & 1) throw bad('encrypted entries are not supported');
        const name = safeEntryName(raw);
        if (name === null) throw bad(`unsafe entry name "${raw.slice(0, 100)}"`);
        const isDirectory = name.endsWith('/');
        if (!isDirectory) {
          if (entrySize > limits.maxEntryBytes)
            throw bad(`an entry is larger than ${limits.maxEntryBytes >> 20} MB unpacked`);
          declared += entrySize;
          if (declared > limits.maxTotalBytes)
            throw bad(`the contents are larger than ${limits.maxTotalBytes >> 20} MB unpacked`);
        }
        entries.push({ name, method, compressedSize, size: entrySize, offset, isDirectory });
      }
      return new SafeZip(fh, entries, limits);
    } catch (err) {
      await fh.close().catch(() => undefined);
      throw err;
    }
  }

  find(name: string): SafeZipEntry | undefined {
    return this.entries.find((e) => e.name === name);
  }

  /** An entry's bytes. Counts against the total budget, so reading an entry many times is bounded too. */
  async read(entry: SafeZipEntry): Promise<Buffer> {
    if (this.used + entry.size > this.limits.maxTotalBytes) throw bad('too much data unpacked');
    // Reserved before the first await: reads running side by side cannot each find room for the same bytes.
    this.used += entry.size;
    const head = Buffer.alloc(30);
    await this.fh.read(head, 0, 30, entry.offset);
    if (head.readUInt32LE(0) !== 0x04034b50) throw bad('damaged entry');
    const start = entry.offset + 30 + head.readUInt16LE(26) + head.readUInt16LE(28);
    const data = Buffer.alloc(entry.compressedSize);
    const { bytesRead } = await this.fh.read(data, 0, entry.compressedSize, start);
    if (bytesRead !== entry.compressedSize) throw bad('truncated entry');
    let out: Buffer;
    if (entry.method === 0) out = data;
    else if (entry.method === 8) {
      try {
        out = await inflateRawExactly(data, entry.size);
      } catch {
        throw bad(`entry "${entry.name}" is damaged or larger than declared`);
      }
    } else throw bad(`unsupported compression method ${entry.method}`);
    if (out.length !== entry.size) throw bad(`entry "${entry.name}" is not the size it declares`);
    return out;
  }

  close(): Promise<void> {
    return this.fh.close();
  }
}
