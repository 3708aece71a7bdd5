import type { FileHandle } from 'node:fs/promises';

/**
 * The end of a PDF as the engines' fix-ups read it, without a parser: the last 4 KB, the offset `startxref` gives,
 * the last `trailer` keyword, and the start of the cross-reference section at that offset (a classic `xref` table or
 * an xref stream object). The page scanner (modules/pdf-scan) has a full parser of its own.
 */
export interface PdfEnd {
  size: number;
  /** The last bytes of the file (at most 4 KB) as latin1 text, and where they start in the file. */
  tail: string;
  tailStart: number;
  /** The offset after the final `startxref`. */
  startxref: number;
  /** Index in `tail` of the last `trailer` keyword; -1 when there is none (a file with an xref stream). */
  trailerAt: number;
  /** Up to 2 KB at `startxref`, latin1 ('' when the offset is outside the file). */
  section: string;
}

const TAIL_BYTES = 4096;
const SECTION_BYTES = 2048;

/** null when the file does not end with `startxref <offset> %%EOF` (damaged, or trailing bytes after the end). */
export async function readPdfEnd(fh: FileHandle): Promise<PdfEnd | null> {
  const size = (await fh.stat()).size;
  const tailLen = Math.min(size, TAIL_BYTES);
  const buf = Buffer.alloc(tailLen);
  await fh.read(buf, 0, tailLen, size - tailLen);
  const tail = buf.toString('latin1');
  const sx = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail);
  if (!sx) return null;
  const startxref = Number(sx[1]);
  let section = '';
  if (startxref >= 0 && startxref < size) {
    const head = Buffer.alloc(Math.min(SECTION_BYTES, size - startxref));
    const { bytesRead } = await fh.read(head, 0, head.length, startxref);
    section = head.toString('latin1', 0, bytesRead);
  }
  return { size, tail, tailStart: size - tailLen, startxref, trailerAt: tail.lastIndexOf('trailer'), section };
}
