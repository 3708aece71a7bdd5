import { open } from 'node:fs/promises';

/** Where the comments are: right after `%PDF-x.y` and its binary marker, before the first object. */
const HEAD_BYTES = 64 * 1024;
const PERCENT = 0x25;
const SPACE = 0x20;
const LF = 0x0a;
const CR = 0x0d;

/**
 * Ghostscript's pdfwrite (10.x) writes the command line it was started with into the file it makes, as comments
 * after the header: `%%Invocation: gs -q -dSAFER … -sOutputFile=? ?`, long ones continued by `%%+ …` lines. That is
 * the server's tool command line (its binary's path, its options) inside the customer's file, and Ghostscript has no
 * switch to leave it out. Each such line is blanked in place: a `%` and spaces to the end of the line, the same
 * length, so the file stays a valid PDF with every offset in its cross-reference table unchanged.
 * Returns how many lines were blanked.
 */
export async function blankInvocationComments(file: string): Promise<number> {
  const handle = await open(file, 'r+');
  try {
    const head = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(head, 0, HEAD_BYTES, 0);
    let blanked = 0;
    let changed = false;
    // Walk the header's comment lines; the first line that is not a comment ends the header.
    for (let start = 0; start < bytesRead && head[start] === PERCENT;) {
      let end = start;
      while (end < bytesRead && head[end] !== LF && head[end] !== CR) end++;
      if (end === bytesRead) break; // a line longer than the window: not Ghostscript's header
      const line = head.toString('latin1', start, end);
      if (line.startsWith('%%Invocation:') || line.startsWith('%%+')) {
        head.fill(SPACE, start + 1, end);
        blanked++;
        changed = true;
      }
      start = end;
      while (start < bytesRead && (head[start] === LF || head[start] === CR)) start++;
    }
    if (changed) await handle.write(head, 0, bytesRead, 0);
    return blanked;
  } finally {
    await handle.close();
  }
}
