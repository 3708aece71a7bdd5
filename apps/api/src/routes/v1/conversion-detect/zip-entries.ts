import { open } from 'node:fs/promises';
import { inflateRawSync } from 'node:zlib';

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  size: number;
  localHeaderOffset: number;
}

/**
 * A zip's central directory, read from the end of the file without unpacking anything (a few KB read for an office
 * document of any size). Returns null when the file is not a readable zip.
 */
export interface ZipReader {
  entries: ZipEntry[];
  /** The bytes of a small entry (stored or deflated), at most `max` bytes; null when unreadable. */
  read(entry: ZipEntry, max?: number): Promise<Buffer | null>;
  close(): Promise<void>;
}

export async function readZipEntries(path: string, fileSize: number): Promise<ZipReader | null> {
  const fh = await open(path, 'r');
  const close = () => fh.close().catch(() => undefined);
  try {
    const tailLen = Math.min(fileSize, 65_557); // EOCD (22) + largest comment (65535)
    const tail = Buffer.alloc(tailLen);
    await fh.read(tail, 0, tailLen, fileSize - tailLen);
    let eocd = -1;
    for (let i = tailLen - 22; i >= 0; i--) {
      if (tail.readUInt32LE(i) === 0x06054b50) {
        eocd = i;
        break;
      }
    }
    if (eocd < 0) {
      await close();
      return null;
    }
    const count = tail.readUInt16LE(eocd + 10);
    const cdSize = tail.readUInt32LE(eocd + 12);
    const cdOffset = tail.readUInt32LE(eocd + 16);
    if (cdOffset + cdSize > fileSize || cdSize > 16 * 1_048_576) {
      await close();
      return null;
    }
    const cd = Buffer.alloc(cdSize);
    await fh.read(cd, 0, cdSize, cdOffset);
    const entries: ZipEntry[] = [];
    let p = 0;
    for (let i = 0; i < count && p + 46 <= cd.length; i++) {
      if (cd.readUInt32LE(p) !== 0x02014b50) break;
      const method = cd.readUInt16LE(p + 10);
      const compressedSize = cd.readUInt32LE(p + 20);
      const size = cd.readUInt32LE(p + 24);
      const nameLen = cd.readUInt16LE(p + 28);
      const extraLen = cd.readUInt16LE(p + 30);
      const commentLen = cd.readUInt16LE(p + 32);
      const localHeaderOffset = cd.readUInt32LE(p + 42);
      entries.push({
        name: cd.subarray(p + 46, p + 46 + nameLen).toString('utf8'),
        method,
        compressedSize,
        size,
        localHeaderOffset,
      });
      p += 46 + nameLen + extraLen + commentLen;
    }
    const reader: ZipReader = {
      entries,
      async read(entry, max = 1_048_576) {
        if (entry.compressedSize > max || entry.size > max) return null;
        const head = Buffer.alloc(30);
        await fh.read(head, 0, 30, entry.localHeaderOffset);
        if (head.readUInt32LE(0) !== 0x04034b50) return null;
        const start = entry.localHeaderOffset + 30 + head.readUInt16LE(26) + head.readUInt16LE(28);
        const data = Buffer.alloc(entry.compressedSize);
        await fh.read(data, 0, entry.compressedSize, start);
        if (entry.method === 0) return data;
        if (entry.method === 8) {
          try {
            return inflateRawSync(data, { maxOutputLength: max });
          } catch {
            return null;
          }
        }
        return null;
      },
      close, // the handle stays open for read(); the caller closes it
    };
    return reader;
  } catch {
    await close();
    return null;
  }
}
