import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { builtName, escapeHtml } from './html-escape';

/**
 * Plain text as an HTML document that prints like the text: preformatted, but wrapped at the page width (long lines
 * are not cut off), tabs kept at 8 columns, form feeds as page breaks.
 */

/** Bytes to text: UTF-8 (BOM or not), UTF-16 with a BOM; anything that is not valid UTF-8 is read as Windows-1252. */
export function decodeText(bytes: Buffer): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes.subarray(2));
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes.subarray(2));
  const body = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? bytes.subarray(3) : bytes;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(body);
  } catch {
    return decodeWindows1252(body);
  }
}

// Node's TextDecoder reads "windows-1252" as ISO-8859-1: the 0x80-0x9F block (€, curly quotes, dashes) by hand.
const CP1252_HIGH =
  '\u20ac\ufffd\u201a\u0192\u201e\u2026\u2020\u2021\u02c6\u2030\u0160\u2039\u0152\ufffd\u017d\ufffd' +
  '\ufffd\u2018\u2019\u201c\u201d\u2022\u2013\u2014\u02dc\u2122\u0161\u203a\u0153\ufffd\u017e\u0178';
function decodeWindows1252(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b >= 0x80 && b < 0xa0 ? CP1252_HIGH[b - 0x80] : String.fromCharCode(b);
  return out;
}

export const TEXT_STYLESHEET = `
html { font-family: "DejaVu Sans Mono", "Liberation Mono", monospace; font-size: 10pt; }
body { margin: 0; }
pre { margin: 0; white-space: pre-wrap; overflow-wrap: anywhere; tab-size: 8; font: inherit; line-height: 1.3; }
pre + pre { break-before: page; }
`;

export function textToHtml(text: string, opts: { title?: string } = {}): string {
  const pages = text.replace(/\r\n?/g, '\n').split('\f');
  const body = pages.map((p) => `<pre>${escapeHtml(p)}</pre>`).join('\n');
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>${escapeHtml(opts.title ?? 'Text')}</title>
<style>${TEXT_STYLESHEET}</style></head>
<body>${body}</body></html>
`;
}

/** Write the HTML of a text file into `outDir`; returns its path (render it with `outDir` as base dir). */
export async function buildTextHtml(input: string, outDir: string): Promise<string> {
  const html = textToHtml(decodeText(await readFile(input)), { title: path.basename(input) });
  const out = path.join(outDir, builtName('text'));
  await writeFile(out, html, 'utf8');
  return out;
}
