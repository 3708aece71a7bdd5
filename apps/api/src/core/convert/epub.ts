import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { EngineError } from '../errors';
import { escapeHtml } from './html-escape';
import { DEFAULT_ZIP_LIMITS, SafeZip, type SafeZipEntry, type ZipLimits } from './safe-zip';

/**
 * An EPUB as one printable HTML document: the spine's XHTML bodies in reading order, each chapter starting a new page,
 * with the book's stylesheets, images and fonts extracted beside it. Scripts are dropped (an EPUB reader would not
 * run them either, and they have no business in a print).
 */

const invalid = (why: string) => new EngineError('INVALID_DOCUMENT', `The EPUB could not be read: ${why}`);

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };
const decodeEntities = (s: string) =>
  s.replace(/&(#x[0-9a-f]+|#\d+|amp|lt|gt|quot|apos);/gi, (m, e: string) => {
    if (e[0] === '#') {
      const n = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return Number.isFinite(n) && n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : m;
    }
    return ENTITIES[e.toLowerCase()] ?? m;
  });

/** The attributes of one tag (`<item id="x" href="y"/>`), names lowercased, namespace prefixes kept. */
export function attributes(tag: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of tag.matchAll(/([\w:.-]+)\s*=\s*("([^"]*)"|'([^']*)')/g))
    out[m[1]!.toLowerCase()] = decodeEntities(m[3] ?? m[4] ?? '');
  return out;
}

/** Tags named `name` (any namespace prefix) in an XML text. */
const tags = (xml: string, name: string) =>
  [...xml.matchAll(new RegExp(`<(?:[\\w-]+:)?${name}\\b[^>]*>`, 'gi'))].map((m) => m[0]);

/** A path inside the zip from an href relative to the file at `from`; null if it leaves the zip or is not local. */
export function resolveHref(from: string, href: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//')) return null;
  const bare = href.split('#')[0]!.split('?')[0]!;
  if (bare === '') return null;
  let decoded: string;
  try {
    decoded = decodeURIComponent(bare);
  } catch {
    return null;
  }
  const joined = path.posix.normalize(path.posix.join(path.posix.dirname(from), decoded));
  if (joined.startsWith('../') || joined === '..' || joined.startsWith('/')) return null;
  return joined;
}

export interface EpubBook {
  title: string;
  opfPath: string;
  /** Spine order, zip paths of the XHTML documents. */
  spine: string[];
}

/** container.xml → OPF → manifest and spine. */
export async function readEpubStructure(zip: SafeZip): Promise<EpubBook> {
  const container = zip.find('META-INF/container.xml');
  if (!container) throw invalid('META-INF/container.xml is missing');
  const cxml = (await zip.read(container)).toString('utf8');
  const rootfile = tags(cxml, 'rootfile')
    .map(attributes)
    .find((a) => a['full-path']);
  const opfPath = rootfile ? resolveHref('', rootfile['full-path']!) : null;
  const opfEntry = opfPath ? zip.find(opfPath) : undefined;
  if (!opfPath || !opfEntry) throw invalid('the package document (OPF) is missing');
  const opf = (await zip.read(opfEntry)).toString('utf8');
  const manifest = new Map<string, { href: string; type: string }>();
  for (const a of tags(opf, 'item').map(attributes)) {
    if (a.id && a.href) manifest.set(a.id, { href: a.href, type: a['media-type'] ?? '' });
  }
  const spine: string[] = [];
  const later: string[] = [];
  for (const a of tags(opf, 'itemref').map(attributes)) {
    const item = a.idref ? manifest.get(a.idref) : undefined;
    if (!item) continue;
    const p = resolveHref(opfPath, item.href);
    if (!p || !zip.find(p)) continue;
    // Non-linear items (notes, answers) still belong in a printed copy: after the main text.
    (a.linear === 'no' ? later : spine).push(p);
  }
  spine.push(...later);
  if (spine.length === 0) throw invalid('the spine lists no readable documents');
  const titleMatch = /<(?:dc:)?title\b[^>]*>([\s\S]*?)<\/(?:dc:)?title>/i.exec(opf);
  const title = titleMatch ? decodeEntities(titleMatch[1]!.replace(/<[^>]*>/g, '')).trim() : 'Book';
  return { title: title || 'Book', opfPath, spine };
}

const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
]);

export interface Chapter {
  body: string;
  stylesheets: string[];
  styles: string[];
}

/**
 * One spine document made fit for an HTML page at the book's root: scripts removed, XML self-closing tags
 * (`<a id="x"/>`, which HTML would read as an open element) expanded, and local URLs rewritten from the chapter's
 * directory to the root; links to other chapters become in-page anchors.
 */
export function chapterHtml(xhtml: string, chapterPath: string, chapterIds: Map<string, string>): Chapter {
  const head = /<head\b[^>]*>([\s\S]*?)<\/head>/i.exec(xhtml)?.[1] ?? '';
  const bodyMatch = /<body\b[^>]*>([\s\S]*?)<\/body>/i.exec(xhtml);
  let body = bodyMatch ? bodyMatch[1]! : xhtml.replace(/^[\s\S]*?<html\b[^>]*>/i, '').replace(/<\/html>[\s\S]*$/i, '');
  body = body
    .replace(/<script\b[\s\S]*?<\/script\s*>/gi, '')
    .replace(/<script\b[^>]*\/>/gi, '')
    .replace(/<([a-zA-Z][\w:-]*)(\s[^<>]*?)?\s*\/>/g, (m, tag: string, attrs: string | undefined) =>
      VOID.has(tag.toLowerCase()) ? m : `<${tag}${attrs ?? ''}></${tag}>`,
    )
    .replace(
      /\s(src|href|xlink:href|poster|data)\s*=\s*("([^"]*)"|'([^']*)')/gi,
      (m, attr: string, _q, dq?: string, sq?: string) => {
        const raw = decodeEntities(dq ?? sq ?? '');
        if (raw.startsWith('#')) return m;
        const target = resolveHref(chapterPath, raw);
        if (!target) return m;
        const fragment = raw.includes('#') ? raw.slice(raw.indexOf('#')) : '';
        const chapter = chapterIds.get(target);
        const value = chapter
          ? fragment || `#${chapter}`
          : target.split('/').map(encodeURIComponent).join('/') + fragment;
        return ` ${attr}="${escapeHtml(value)}"`;
      },
    );
  const stylesheets = tags(head, 'link')
    .map(attributes)
    .filter((a) => /stylesheet/i.test(a.rel ?? '') && a.href)
    .map((a) => resolveHref(chapterPath, a.href!))
    .filter((p): p is string => p !== null);
  const styles = [...head.matchAll(/<style\b[^>]*>([\s\S]*?)<\/style>/gi)].map((m) => m[1]!);
  return { body, stylesheets, styles };
}

/** The book's root-level HTML: chapters in spine order, each on a new page. */
export function bookHtml(title: string, chapters: Array<Chapter & { id: string }>): string {
  const css = [...new Set(chapters.flatMap((c) => c.stylesheets))];
  const styles = [...new Set(chapters.flatMap((c) => c.styles))];
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>
.epub-chapter + .epub-chapter { break-before: page; }
img, svg { max-width: 100%; height: auto; }
</style>
${css.map((c) => `<link rel="stylesheet" href="${escapeHtml(c.split('/').map(encodeURIComponent).join('/'))}">`).join('\n')}
${styles.map((s) => `<style>${s.replace(/<\/style/gi, '<\\/style')}</style>`).join('\n')}
</head><body>
${chapters.map((c) => `<section class="epub-chapter" id="${c.id}">\n${c.body}\n</section>`).join('\n')}
</body></html>
`;
}

const ASSET = /\.(css|png|jpe?g|gif|webp|svg|bmp|avif|woff2?|ttf|otf)$/i;

/**
 * Unpack an EPUB into a new directory under `outDir` and write the book's HTML at its root; returns the HTML's path
 * (render it with `outDir` as base dir). Only stylesheets, images and fonts are written out, never with a name that
 * leaves the directory.
 */
export async function buildEpubHtml(
  input: string,
  outDir: string,
  limits: ZipLimits = DEFAULT_ZIP_LIMITS,
): Promise<string> {
  let zip: SafeZip;
  try {
    zip = await SafeZip.open(input, limits);
  } catch (err) {
    if (err instanceof EngineError) throw err;
    throw invalid('not a zip archive');
  }
  try {
    const book = await readEpubStructure(zip);
    const root = path.join(outDir, `epub-${Math.random().toString(36).slice(2, 10)}`);
    await mkdir(root, { recursive: true });
    const ids = new Map(book.spine.map((p, i) => [p, `chapter-${i + 1}`]));
    const chapters: Array<Chapter & { id: string }> = [];
    for (const p of book.spine) {
      const xhtml = (await zip.read(zip.find(p)!)).toString('utf8');
      chapters.push({ ...chapterHtml(xhtml, p, ids), id: ids.get(p)! });
    }
    for (const e of zip.entries) await extractAsset(zip, e, root);
    const html = path.join(root, 'book.html');
    await writeFile(html, bookHtml(book.title, chapters), 'utf8');
    return html;
  } finally {
    await zip.close().catch(() => undefined);
  }
}

async function extractAsset(zip: SafeZip, e: SafeZipEntry, root: string): Promise<void> {
  if (e.isDirectory || !ASSET.test(e.name) || e.name.startsWith('META-INF/')) return;
  const dest = path.resolve(root, e.name);
  // safeEntryName already refused `..` and absolute names; this is the belt to those braces.
  if (!dest.startsWith(root + path.sep)) return;
  const data = await zip.read(e);
  try {
    await mkdir(path.dirname(dest), { recursive: true });
    // 'wx': two names that normalise alike ("a//b.png", "a/b.png") must not overwrite each other.
    await writeFile(dest, data, { flag: 'wx' });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code !== 'EEXIST' && code !== 'ENOTDIR') throw err;
  }
}
