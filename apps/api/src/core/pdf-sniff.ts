import { open } from 'node:fs/promises';
import { fileTypeFromFile } from 'file-type';
import { EngineError } from './errors';

/** PostScript (`%!`, after at most white space or a UTF-8 BOM) or DOS EPS (its binary header C5 D0 D3 C6). */
function isPostScript(head: Buffer): boolean {
  if (head.length >= 4 && head.readUInt32BE(0) === 0xc5d0d3c6) return true;
  return /^(\xEF\xBB\xBF)?[\s\0]*%!/.test(head.subarray(0, 64).toString('latin1'));
}

/**
 * Look at the bytes, not the name: a PDF has `%PDF-` within its first 1024 bytes (readers accept some junk before
 * it), and does not start as a PostScript program.
 */
export async function assertPdf(path: string, label: string): Promise<{ size: number; version: string | null }> {
  const fh = await open(path, 'r');
  let head: Buffer;
  let size: number;
  try {
    size = (await fh.stat()).size;
    const buf = Buffer.alloc(Math.min(1024, size));
    await fh.read(buf, 0, buf.length, 0);
    head = buf;
  } finally {
    await fh.close();
  }
  if (size === 0) {
    throw new EngineError('INVALID_PDF', `${label} is empty (0 bytes); send a PDF document`, {
      details: { file: label },
    });
  }
  if (isPostScript(head)) {
    // A PostScript program with `%PDF-` in a comment is still a program (and Ghostscript would run it as one).
    throw new EngineError(
      'UNSUPPORTED_FORMAT',
      `${label} is a PostScript program, not a PDF; valid: PDF documents (convert PostScript to PDF first)`,
      { details: { file: label, detected: 'application/postscript' } },
    );
  }
  const at = head.indexOf('%PDF-');
  if (at < 0) {
    const detected = await fileTypeFromFile(path).catch(() => undefined);
    const what = detected ? `it looks like ${detected.mime}` : 'no PDF header found';
    throw new EngineError('UNSUPPORTED_FORMAT', `${label} is not a PDF (${what}); valid: PDF documents`, {
      details: { file: label, detected: detected?.mime ?? null },
    });
  }
  const m = /^%PDF-(\d\.\d)/.exec(head.subarray(at, at + 8).toString('latin1'));
  return { size, version: m ? m[1]! : null };
}
