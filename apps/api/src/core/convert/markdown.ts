import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import MarkdownIt from 'markdown-it';
import { EngineError } from '../errors';
import { builtName, escapeHtml } from './html-escape';
import { decodeText } from './text';

/**
 * Markdown to an HTML document for the renderer. Raw HTML in the Markdown is escaped unless `html` is set: the
 * Markdown is the client's, and with it off nothing but Markdown's own constructs reaches the page.
 */
export interface MarkdownOptions {
  /** Let raw HTML in the Markdown through (default false: escaped). */
  html?: boolean;
  title?: string;
}

export const MARKDOWN_STYLESHEET = `
html { font-family: "DejaVu Sans", "Liberation Sans", Arial, sans-serif; font-size: 11pt; line-height: 1.5; color: #111; }
body { margin: 0; }
h1, h2, h3, h4, h5, h6 { line-height: 1.25; margin: 1.2em 0 0.5em; break-after: avoid; }
h1 { font-size: 2em; border-bottom: 1px solid #ccc; padding-bottom: 0.2em; }
h2 { font-size: 1.5em; border-bottom: 1px solid #eee; padding-bottom: 0.15em; }
p, ul, ol, blockquote, pre, table { margin: 0 0 0.9em; }
a { color: #0645ad; text-decoration: none; }
code { font-family: "DejaVu Sans Mono", "Liberation Mono", monospace; font-size: 0.9em; background: #f3f3f3; padding: 0.1em 0.3em; border-radius: 3px; }
pre { background: #f6f6f6; padding: 0.7em 0.9em; border-radius: 4px; white-space: pre-wrap; overflow-wrap: anywhere; break-inside: avoid; }
pre code { background: none; padding: 0; font-size: 0.85em; }
blockquote { border-left: 4px solid #ddd; padding-left: 0.9em; color: #555; }
table { border-collapse: collapse; }
th, td { border: 1px solid #bbb; padding: 0.3em 0.6em; }
th { background: #f0f0f0; }
tr { break-inside: avoid; }
img { max-width: 100%; }
hr { border: 0; border-top: 1px solid #ccc; }
`;

type Md = InstanceType<typeof MarkdownIt>;
const engines = new Map<boolean, Md>();
function md(html: boolean): Md {
  let m = engines.get(html);
  if (!m) {
    m = new MarkdownIt({ html, linkify: true, typographer: false });
    engines.set(html, m);
  }
  return m;
}

/** The HTML fragment of a Markdown text. */
export function renderMarkdown(source: string, opts: MarkdownOptions = {}): string {
  return md(opts.html ?? false).render(source);
}

/** A whole printable document around the rendered Markdown. */
export function markdownDocument(source: string, opts: MarkdownOptions = {}): string {
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>${escapeHtml(opts.title ?? 'Document')}</title>
<style>${MARKDOWN_STYLESHEET}</style></head>
<body>
${renderMarkdown(source, opts)}</body></html>
`;
}

/** `{{ toHTML "file.md" }}` (and the older `{{ toHTML .DirPath "file.md" }}`) of a Gotenberg Markdown template. */
const PLACEHOLDER = /\{\{\s*toHTML\s+(?:\.DirPath\s+)?"([^"{}]+)"\s*\}\}/g;

/** The Markdown files a template names, in order, without duplicates. */
export function templateFiles(template: string): string[] {
  return [...new Set([...template.matchAll(PLACEHOLDER)].map((m) => m[1]!))];
}

/** Replace each placeholder with the rendered Markdown of the file it names (`read` gives the file's text). */
export async function expandTemplate(
  template: string,
  read: (name: string) => Promise<string>,
  opts: MarkdownOptions = {},
): Promise<string> {
  const rendered = new Map<string, string>();
  for (const name of templateFiles(template)) rendered.set(name, renderMarkdown(await read(name), opts));
  return template.replace(PLACEHOLDER, (_, name: string) => rendered.get(name) ?? '');
}

/** A sibling file of the template, refused if the name leads out of its directory. */
async function readSibling(dir: string, name: string): Promise<string> {
  const file = path.resolve(dir, name);
  if (!file.startsWith(dir + path.sep) || !/\.(md|markdown)$/i.test(name)) {
    throw new EngineError('INVALID_INPUT', `The template names "${name}", which is not a Markdown file beside it`, {
      details: { file: name },
    });
  }
  try {
    return decodeText(await readFile(file));
  } catch {
    throw new EngineError('INVALID_INPUT', `The template names "${name}", which was not uploaded`, {
      details: { file: name },
    });
  }
}

/**
 * Build the HTML to render from a Markdown upload: a `.md` file becomes a styled document; an `.html` file is a
 * template whose placeholders take the Markdown files beside it. The result is written into `outDir` (the directory
 * holding the upload's images, so relative links resolve) and its path returned.
 */
export async function buildMarkdownHtml(input: string, outDir: string, opts: MarkdownOptions = {}): Promise<string> {
  const text = decodeText(await readFile(input));
  const html = /\.html?$/i.test(input)
    ? await expandTemplate(text, (name) => readSibling(path.dirname(path.resolve(input)), name), opts)
    : markdownDocument(text, { title: path.basename(input).replace(/\.(md|markdown)$/i, ''), ...opts });
  const out = path.join(outDir, builtName('markdown'));
  await writeFile(out, html, 'utf8');
  return out;
}
