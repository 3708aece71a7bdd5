import { copyFile, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { EngineError } from '../../errors';
import type { SourceFile } from '../pdf/job';
import type { Workspace } from '../../workspace';
import { buildMarkdownHtml, templateFiles } from '../../convert/markdown';
import { assetName, checkSource } from './sources';

/**
 * The one way an HTML or Markdown upload becomes a page Chromium renders, for every door (the conversion endpoints,
 * Gotenberg's Chromium routes, a detected conversion): the uploads checked, the page and its assets laid out in a
 * directory of their own (the only place the renderer may read from), Markdown rendered into the page. Which upload
 * is the page, and what a door answers when there is none, stay the door's.
 */
export interface SiteSpec {
  /**
   * The page: an uploaded HTML file or HTML text. With `markdown`, a template whose `{{ toHTML "x.md" }}`
   * placeholders take the Markdown files among the assets; none: those files one after the other.
   */
  page?: { file: SourceFile } | { html: string };
  /** The files beside the page, found by their names: images, CSS, fonts, and with `markdown` the Markdown files. */
  assets: SourceFile[];
  markdown?: boolean;
  /** How the door names an upload in its messages (default: "name"). */
  label?: (file: SourceFile) => string;
  /** The uploads were checked already (a conversion that detected the format): not looked at again. */
  checked?: boolean;
  /** Every Markdown file the template names must be sent (Gotenberg's rule): the error for those missing. */
  missing?: (names: string[]) => Error;
}

export interface Site {
  /** The page to render. */
  html: string;
  /** The directory holding it and its assets. */
  dir: string;
}

const isMarkdown = (f: SourceFile) => /\.(md|markdown)$/i.test(f.filename);

/** Several Markdown files without a template: each one after the other, each from a new page. */
const markdownTemplate = (names: string[]) =>
  `<!doctype html><html><head><meta charset="utf-8"></head><body>${names.map((n) => `<div style="page-break-after: always">{{ toHTML ${JSON.stringify(n)} }}</div>`).join('')}</body></html>`;

export async function buildSite(ws: Workspace, spec: SiteSpec): Promise<Site> {
  const markdown = spec.markdown ? spec.assets.filter(isMarkdown) : [];
  const pageFile = spec.page && 'file' in spec.page ? spec.page.file : undefined;
  if (!spec.checked) {
    if (pageFile && !spec.markdown) await checkSource(pageFile, 'html-to-pdf', spec.label?.(pageFile));
    for (const md of markdown) await checkSource(md, 'markdown-to-pdf', spec.label?.(md));
  }
  if (spec.missing && pageFile) {
    const missing = templateFiles(await readFile(pageFile.path, 'utf8')).filter(
      (name) => !markdown.some((md) => md.filename === name),
    );
    if (missing.length) throw spec.missing(missing);
  }
  const page =
    spec.page ?? (spec.markdown ? { html: markdownTemplate(markdown.map((f) => assetName(f.filename))) } : undefined);
  const site = await layOut(ws, page ?? { html: '' }, spec.assets);
  return { html: spec.markdown ? await buildMarkdownHtml(site.index, site.dir) : site.index, dir: site.dir };
}

/** The page as `index.html` and the assets under their base names, so the page's relative links find them. */
async function layOut(
  ws: Workspace,
  page: { html: string } | { file: SourceFile },
  assets: SourceFile[],
): Promise<{ dir: string; index: string }> {
  const dir = await ws.subdir('site');
  const index = path.join(dir, 'index.html');
  if ('file' in page) await copyFile(page.file.path, index);
  else await writeFile(index, page.html);
  const seen = new Set(['index.html']);
  for (const a of assets) {
    const name = assetName(a.filename);
    if (seen.has(name.toLowerCase())) {
      throw new EngineError('INVALID_INPUT', `assets: two files are named "${name}"`, { details: { field: 'assets' } });
    }
    seen.add(name.toLowerCase());
    await copyFile(a.path, path.join(dir, name));
  }
  return { dir, index };
}
