import { scannedKeys, type KeySet } from './keys';
import { giveUp } from './limits';
import { NeedMore, Parser, type PdfStream } from './objects';
import { MAX_SPAN_BYTES, type RandomAccessFile } from './reader';

/** Most objects a scan reads (pages, small page tree nodes) fit in this. */
const FIRST_WINDOW = 4096;

/**
 * Parse at a file offset, building only the `keep` entries of dictionaries (all when undefined). A file in memory
 * is parsed in place; a large one from a window that grows until what is parsed fits, so that one object never
 * reads the file whole.
 */
export function parseAt<T>(
  file: RandomAccessFile,
  offset: number,
  parse: (p: Parser) => T,
  keep: KeySet | undefined = scannedKeys,
): T {
  if (!Number.isSafeInteger(offset) || offset < 0 || offset >= file.size) throw giveUp('offset outside the file');
  for (let window = file.inMemory ? file.size : FIRST_WINDOW; ; window *= 8) {
    const buf = file.bytes(offset, Math.min(window, MAX_SPAN_BYTES));
    const complete = offset + buf.length >= file.size;
    try {
      return parse(new Parser(buf, 0, complete, keep));
    } catch (err) {
      if (!(err instanceof NeedMore)) throw err;
      if (window >= MAX_SPAN_BYTES) throw giveUp('object larger than the limit');
    }
  }
}

/** The undecoded data of a stream of `length` bytes, which must be followed by `endstream`. */
export function rawStreamData(file: RandomAccessFile, stream: PdfStream, length: number): Buffer {
  const end = stream.dataOffset + length;
  if (!Number.isSafeInteger(length) || length < 0 || end > file.size) throw giveUp('stream length outside the file');
  if (length > MAX_SPAN_BYTES) throw giveUp('stream larger than the limit');
  // A wrong /Length is a damaged file: the tools can recover it by searching for endstream, this scan does not.
  if (parseAt(file, end, (p) => p.keyword()) !== 'endstream') throw giveUp('stream not followed by endstream');
  return file.bytes(stream.dataOffset, length);
}
