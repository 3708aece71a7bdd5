import { SafeZip, type SafeZipEntry } from './safe-zip';

export type ZipEntry = SafeZipEntry;

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

/** Detection only lists names and reads a few small entries: the unpacking caps of SafeZip do not apply. */
const LISTING_LIMITS = {
  maxEntries: 1_000_000,
  maxEntryBytes: Number.MAX_SAFE_INTEGER,
  maxTotalBytes: Number.MAX_SAFE_INTEGER,
};

export async function readZipEntries(path: string): Promise<ZipReader | null> {
  let zip: SafeZip;
  try {
    zip = await SafeZip.open(path, LISTING_LIMITS);
  } catch {
    return null;
  }
  return {
    entries: zip.entries,
    async read(entry, max = 1_048_576) {
      if (entry.compressedSize > max || entry.size > max) return null;
      return zip.read(entry).catch(() => null);
    },
    close: () => zip.close().catch(() => undefined),
  };
}
