import { open } from 'node:fs/promises';
import path from 'node:path';
import { fileTypeFromFile } from 'file-type';
import { readZipEntries } from '../../convert/zip-entries';

export type FormatCategory =
  | 'document'
  | 'spreadsheet'
  | 'presentation'
  | 'image'
  | 'pdf'
  | 'text'
  | 'web'
  | 'ebook'
  | 'archive'
  | 'other'
  | 'unknown';

export interface DetectedFormat {
  format: string | null;
  mimeType: string;
  category: FormatCategory;
  /** 0-1: container contents and magic numbers are near certain, text sniffing less so, the file name alone little. */
  confidence: number;
  method: 'container' | 'magic' | 'text' | 'extension' | 'none';
  /** The conversion route auto-to-pdf would hand it to (null: not convertible). */
  route: string | null;
  supported: boolean;
}

interface Known {
  mime: string;
  category: FormatCategory;
  route: string | null;
}

const K = (mime: string, category: FormatCategory, route: string | null): Known => ({ mime, category, route });
const WORD = '/conversion/word-to-pdf';
const EXCEL = '/conversion/excel-to-pdf';
const PPT = '/conversion/powerpoint-to-pdf';
const IMG = '/conversion/image-to-pdf';

export const formats: Record<string, Known> = {
  pdf: K('application/pdf', 'pdf', null),
  doc: K('application/msword', 'document', WORD),
  docx: K('application/vnd.openxmlformats-officedocument.wordprocessingml.document', 'document', WORD),
  odt: K('application/vnd.oasis.opendocument.text', 'document', WORD),
  fodt: K('application/vnd.oasis.opendocument.text-flat-xml', 'document', WORD),
  wpd: K('application/vnd.wordperfect', 'document', WORD),
  rtf: K('application/rtf', 'document', WORD),
  txt: K('text/plain', 'text', '/conversion/text-to-pdf'),
  xls: K('application/vnd.ms-excel', 'spreadsheet', EXCEL),
  xlsx: K('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', 'spreadsheet', EXCEL),
  ods: K('application/vnd.oasis.opendocument.spreadsheet', 'spreadsheet', EXCEL),
  fods: K('application/vnd.oasis.opendocument.spreadsheet-flat-xml', 'spreadsheet', EXCEL),
  csv: K('text/csv', 'spreadsheet', EXCEL),
  ppt: K('application/vnd.ms-powerpoint', 'presentation', PPT),
  pptx: K('application/vnd.openxmlformats-officedocument.presentationml.presentation', 'presentation', PPT),
  ppsx: K('application/vnd.openxmlformats-officedocument.presentationml.slideshow', 'presentation', PPT),
  odp: K('application/vnd.oasis.opendocument.presentation', 'presentation', PPT),
  fodp: K('application/vnd.oasis.opendocument.presentation-flat-xml', 'presentation', PPT),
  html: K('text/html', 'web', '/conversion/html-to-pdf'),
  md: K('text/markdown', 'text', '/conversion/markdown-to-pdf'),
  svg: K('image/svg+xml', 'image', IMG),
  jpg: K('image/jpeg', 'image', IMG),
  png: K('image/png', 'image', IMG),
  gif: K('image/gif', 'image', IMG),
  bmp: K('image/bmp', 'image', IMG),
  tif: K('image/tiff', 'image', IMG),
  webp: K('image/webp', 'image', IMG),
  heic: K('image/heic', 'image', IMG),
  epub: K('application/epub+zip', 'ebook', '/conversion/epub-to-pdf'),
  zip: K('application/zip', 'archive', null),
};

const aliases: Record<string, string> = { jpeg: 'jpg', tiff: 'tif', htm: 'html', markdown: 'md', text: 'txt' };

function result(
  format: string | null,
  confidence: number,
  method: DetectedFormat['method'],
  mime?: string,
): DetectedFormat {
  const known = format ? formats[format] : undefined;
  return {
    format,
    mimeType: known?.mime ?? mime ?? 'application/octet-stream',
    category: known?.category ?? (format ? 'other' : 'unknown'),
    confidence: Math.round(confidence * 100) / 100,
    method,
    route: known?.route ?? null,
    supported: Boolean(known?.route),
  };
}

const containerTypes: Array<[string, string]> = [
  ['wordprocessingml.document.main', 'docx'],
  ['wordprocessingml.template.main', 'docx'],
  ['spreadsheetml.sheet.main', 'xlsx'],
  ['spreadsheetml.template.main', 'xlsx'],
  ['presentationml.slideshow.main', 'ppsx'],
  ['presentationml.presentation.main', 'pptx'],
  ['presentationml.template.main', 'pptx'],
];
const odfTypes: Record<string, string> = {
  'application/vnd.oasis.opendocument.text': 'odt',
  'application/vnd.oasis.opendocument.spreadsheet': 'ods',
  'application/vnd.oasis.opendocument.presentation': 'odp',
  'application/epub+zip': 'epub',
};

/** What a zip holds: OOXML by [Content_Types].xml (or its part names), ODF and EPUB by the `mimetype` entry. */
async function inspectZip(file: string): Promise<DetectedFormat | null> {
  const zip = await readZipEntries(file);
  if (!zip) return null;
  try {
    const byName = new Map(zip.entries.map((e) => [e.name, e]));
    const mimetype = byName.get('mimetype');
    if (mimetype) {
      const text = (await zip.read(mimetype, 200))?.toString('ascii').trim();
      if (text && odfTypes[text]) return result(odfTypes[text]!, 0.99, 'container');
    }
    const ct = byName.get('[Content_Types].xml');
    if (ct) {
      const xml = (await zip.read(ct))?.toString('utf8') ?? '';
      for (const [marker, ext] of containerTypes) if (xml.includes(marker)) return result(ext, 0.99, 'container');
    }
    if (byName.has('word/document.xml')) return result('docx', 0.9, 'container');
    if (byName.has('xl/workbook.xml')) return result('xlsx', 0.9, 'container');
    if (byName.has('ppt/presentation.xml')) return result('pptx', 0.9, 'container');
    if (byName.has('META-INF/container.xml') && zip.entries.some((e) => e.name.endsWith('.opf')))
      return result('epub', 0.85, 'container');
    return result('zip', 0.9, 'magic');
  } finally {
    await zip.close();
  }
}

/** Plain text, CSV, HTML, Markdown, SVG, RTF: decided from the first 64 KB when the bytes are text. */
function sniffText(buf: Buffer): DetectedFormat | null {
  if (buf.length === 0) return null;
  if (buf.includes(0)) return null;
  const text = buf.toString('utf8');
  const bad = (text.match(/\uFFFD/g) ?? []).length;
  if (bad > Math.max(2, text.length / 200)) return null;
  let control = 0;
  for (const b of buf) if ((b >= 0x01 && b <= 0x08) || (b >= 0x0e && b <= 0x1f)) control++;
  if (control > text.length / 100) return null;
  const head = text
    .slice(0, 4096)
    .replace(/^\uFEFF/, '')
    .trimStart();
  const lower = head.toLowerCase();
  if (lower.startsWith('{\\rtf')) return result('rtf', 0.95, 'magic');
  if (/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!doctype svg[^>]*>\s*)?<svg[\s>]/i.test(head))
    return result('svg', 0.95, 'text');
  if (/^(<!--[\s\S]*?-->\s*)*<!doctype html/i.test(head) || /^<html[\s>]/i.test(head))
    return result('html', 0.95, 'text');
  if (
    /<(html|head|body)[\s>]/i.test(head) ||
    (/<(div|p|table|h[1-6]|span|a)\b[^>]*>/i.test(head) && /<\/(div|p|table|h[1-6]|span|a)>/i.test(head))
  )
    return result('html', 0.75, 'text');
  const lines = text.split(/\r?\n/).slice(0, 200);
  const nonEmpty = lines.filter((l) => l.trim() !== '');
  // Markdown: headings, lists, fences, links, emphasis; two kinds of signal make it likely.
  const md = [
    nonEmpty.some((l) => /^#{1,6}\s+\S/.test(l)),
    nonEmpty.some((l) => /^\s*([-*+]|\d+\.)\s+\S/.test(l)),
    nonEmpty.some((l) => /^```/.test(l)),
    /\[[^\]]+\]\([^)]+\)/.test(text),
    /(\*\*|__)[^*_\n]+\1/.test(text),
    nonEmpty.some((l) => /^\s*\|.*\|\s*$/.test(l)) && nonEmpty.some((l) => /^\s*\|?\s*:?-{3,}/.test(l)),
    nonEmpty.some((l) => /^>\s/.test(l)),
  ].filter(Boolean).length;
  if (md >= 2) return result('md', md >= 3 ? 0.85 : 0.7, 'text');
  // CSV: the same number (>= 1) of one delimiter on most of the first lines, outside quotes.
  if (nonEmpty.length >= 2) {
    const sample = nonEmpty.slice(0, 20);
    for (const d of [',', ';', '\t', '|']) {
      const counts = sample.map((l) => l.replace(/"[^"]*"/g, '').split(d).length - 1);
      const first = counts[0]!;
      if (first >= 1 && counts.filter((c) => c === first).length >= Math.ceil(sample.length * 0.8))
        return result('csv', sample.length >= 3 ? 0.85 : 0.65, 'text');
    }
  }
  if (md === 1) return result('md', 0.5, 'text');
  return result('txt', 0.8, 'text');
}

/** What the file is, from its bytes: magic numbers (file-type), zip contents, text sniffing; the name only as a last hint. */
export async function detectFormat(file: string, size: number, fileName?: string): Promise<DetectedFormat> {
  const ft = await fileTypeFromFile(file).catch(() => undefined);
  if (ft) {
    if (
      ft.ext === 'zip' ||
      ['docx', 'xlsx', 'pptx', 'odt', 'ods', 'odp', 'epub'].includes(ft.ext) ||
      ft.mime.includes('openxmlformats')
    ) {
      const inside = await inspectZip(file);
      if (inside) return inside;
    }
    if (ft.ext === 'cfb') {
      // Old Office binaries share one container; the extension tells which application wrote it.
      const ext = fileName
        ? (aliases[path.extname(fileName).slice(1).toLowerCase()] ?? path.extname(fileName).slice(1).toLowerCase())
        : '';
      if (['doc', 'xls', 'ppt'].includes(ext)) return result(ext, 0.8, 'magic');
      // A password-protected OOXML file is a CFB container holding the encrypted package.
      if (['docx', 'xlsx', 'pptx', 'ppsx'].includes(ext)) return result(ext, 0.7, 'magic');
      return result(null, 0.3, 'magic', ft.mime);
    }
    const ext = aliases[ft.ext] ?? ft.ext;
    if (ext === 'xml') {
      const head = await readHead(file);
      const flat = flatOdf(head);
      if (flat) return result(flat, 0.95, 'text');
      const s = sniffText(head);
      if (s?.format === 'svg' || s?.format === 'html') return s;
    }
    return result(ext, 0.95, 'magic', ft.mime);
  }
  const head = await readHead(file);
  // WordPerfect: file-type does not know its magic number.
  if (head.subarray(0, 4).equals(Buffer.from([0xff, 0x57, 0x50, 0x43]))) return result('wpd', 0.95, 'magic');
  const flat = flatOdf(head);
  if (flat) return result(flat, 0.95, 'text');
  const sniffed = sniffText(head);
  if (sniffed) return sniffed;
  if (fileName) {
    const raw = path.extname(fileName).slice(1).toLowerCase();
    const ext = aliases[raw] ?? raw;
    if (formats[ext]) return result(ext, 0.3, 'extension');
  }
  return result(null, 0, 'none');
}

/** Flat (single XML file) OpenDocument: the root element names its type. */
function flatOdf(head: Buffer): string | null {
  const text = head.toString('utf8', 0, Math.min(head.length, 8192));
  if (!/<office:document[\s>]/.test(text)) return null;
  const m = /office:mimetype="application\/vnd\.oasis\.opendocument\.(text|spreadsheet|presentation)"/.exec(text);
  return m ? { text: 'fodt', spreadsheet: 'fods', presentation: 'fodp' }[m[1] as 'text'] : null;
}

async function readHead(file: string, n = 65_536): Promise<Buffer> {
  const fh = await open(file, 'r');
  try {
    const buf = Buffer.alloc(n);
    const { bytesRead } = await fh.read(buf, 0, n, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}
