import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { TLegalDocument, TLegalDocumentName } from '@docflow/contracts';
import { renderMarkdown } from '../../core/convert/markdown';
import { defaultLegalTexts } from './default-texts';

/** An operator's text larger than this is refused (a wrong file put in place), and the default shown instead. */
const MAX_BYTES = 256 * 1024;

/**
 * The Terms of Service or Privacy Policy: the operator's Markdown file in DATA_DIR (`terms.md`, `privacy.md`; a
 * `terms.fr.md` beside it answers French readers) read at each call, so replacing the file needs no restart; else the
 * neutral default. Rendered with raw HTML escaped: the page shows it as is.
 */
export async function readLegalDocument(
  dataDir: string,
  document: TLegalDocumentName,
  lang: 'en' | 'fr',
): Promise<TLegalDocument> {
  for (const name of [`${document}.${lang}.md`, `${document}.md`]) {
    const file = path.join(dataDir, name);
    const info = await stat(file).catch(() => null);
    if (!info?.isFile() || info.size > MAX_BYTES) continue;
    const markdown = await readFile(file, 'utf8');
    if (!markdown.trim()) continue;
    return {
      document,
      source: 'operator',
      markdown,
      html: renderMarkdown(markdown),
      updatedAt: info.mtime.toISOString(),
    };
  }
  const markdown = defaultLegalTexts[document][lang];
  return { document, source: 'default', markdown, html: renderMarkdown(markdown), updatedAt: null };
}
