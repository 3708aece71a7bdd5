import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { EngineContext } from '../../engine-module';
import { EngineError, INVALID_PDF_MESSAGE } from '../../errors';
import type { OpContext } from '../../interfaces';
import { ToolFailedError } from '../../run-tool';

/** Largest file searched for its catalog when it lost its trailer (the repair of a cut download). */
const MAX_SCAN_BYTES = 64 << 20;

/**
 * Ghostscript is a PostScript interpreter with -dSAFER between a document and the machine, and SAFER escapes ship
 * several times a year; a file that is PostScript and PDF at once would be run as PostScript. So Ghostscript only
 * ever reads what qpdf wrote: a PDF parsed object by object and serialised afresh, no byte of the upload's own
 * framing left. A file qpdf cannot rewrite never reaches Ghostscript (INVALID_PDF).
 *
 * A file cut before its trailer is the one damage qpdf cannot recover from alone (it rebuilds the cross-reference
 * table by scanning, but needs the trailer's /Root): a trailer naming the catalog found by that same scan is added
 * to a copy, and qpdf tries again.
 */
export async function rewrittenByQpdf(
  ctx: EngineContext,
  qpdf: string,
  input: string,
  output: string,
  c: OpContext,
): Promise<void> {
  const rewrite = (from: string) =>
    ctx.tools.run(qpdf, [from, output], {
      okExitCodes: [0, 3], // 3: rewritten with warnings (damage qpdf recovered from)
      signal: c.signal,
      runAs: c.runAs,
    });
  try {
    await rewrite(input);
    return;
  } catch (err) {
    if (!(err instanceof ToolFailedError)) throw err;
    if (/password/i.test(err.stderr))
      throw new EngineError('PASSWORD_REQUIRED', 'This PDF is encrypted: send its password in the "password" field', {
        cause: err,
      });
    const patched = /trailer dictionary/i.test(err.stderr) ? await withTrailer(input, c.scratch) : null;
    if (patched) {
      try {
        await rewrite(patched);
        return;
      } catch (again) {
        if (!(again instanceof ToolFailedError)) throw again;
      }
    }
    throw new EngineError('INVALID_PDF', INVALID_PDF_MESSAGE, { cause: err });
  }
}

/** A copy of the file with a trailer whose /Root is the last catalog object in it, or null when it has none. */
async function withTrailer(input: string, scratch: string): Promise<string | null> {
  if ((await stat(input)).size > MAX_SCAN_BYTES) return null;
  const bytes = await readFile(input);
  let root: string | null = null;
  const catalogs = /(\d{1,10})\s+(\d{1,5})\s+obj\s*<<(?:(?!endobj)[\s\S]){0,4096}?\/Type\s*\/Catalog\b/g;
  for (const m of bytes.toString('latin1').matchAll(catalogs)) root = `${m[1]} ${m[2]} R`;
  if (!root) return null;
  const file = path.join(scratch, `with-trailer-${path.basename(input)}`);
  await writeFile(file, Buffer.concat([bytes, Buffer.from(`\ntrailer\n<< /Root ${root} >>\n%%EOF\n`)]));
  return file;
}
