import { readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import type { BrowserContext, Route } from 'playwright-core';
import { EngineError } from '../../errors';

/**
 * An uploaded HTML document is served to the browser from a made-up https origin (the `.invalid` TLD never
 * resolves) whose files are those under the job's base dir, answered by the route handler itself, rather than opened
 * as file://. A file:// page may read any other file:// URL (`<iframe src="file:///etc/passwd">`); a page of an
 * https origin cannot load file:// at all, so the browser's own rules back up the route policy. Relative links and
 * root-relative ones (`/img/a.png`) both resolve inside the base dir. The https origin also makes the page a secure
 * context (crypto.subtle and the like work as on a real site).
 */
export const DOCUMENT_ORIGIN = 'https://document.invalid';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.htm': 'text/html; charset=utf-8',
  '.xhtml': 'application/xhtml+xml; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.md': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.avif': 'image/avif',
  '.bmp': 'image/bmp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.otf': 'font/otf',
};

const within = (root: string, p: string) =>
  p === root || p.startsWith(root.endsWith(path.sep) ? root : root + path.sep);

/** The document's URL on the made-up origin; the input must be a file under baseDir. */
export function documentUrl(baseDir: string, input: string): string {
  const rel = path.relative(path.resolve(baseDir), path.resolve(input));
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) {
    throw new EngineError('INVALID_INPUT', 'The HTML file must be inside its assets directory');
  }
  return `${DOCUMENT_ORIGIN}/${rel.split(path.sep).map(encodeURIComponent).join('/')}`;
}

/** The file under `root` a document-origin URL names, or null (outside the root, through a symlink, not a file). */
export async function fileForUrl(root: string, url: URL): Promise<string | null> {
  let rel: string;
  try {
    rel = decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
  if (rel.includes('\0')) return null;
  const candidate = path.resolve(root, `.${path.posix.normalize(`/${rel}`)}`);
  if (!within(root, candidate)) return null;
  try {
    // A symlink inside the dir must not lead out of it.
    const real = await realpath(candidate);
    if (!within(root, real)) return null;
    if (!(await stat(real)).isFile()) return null;
    return real;
  } catch {
    return null;
  }
}

/**
 * Install the offline policy on a context: the document origin is answered from `baseDir`, data: and blob: are
 * the browser's own business, everything else (http, https, ws, other schemes) is refused.
 */
export async function serveDocument(context: BrowserContext, baseDir: string): Promise<void> {
  const root = await realpath(baseDir);
  const answer = async (route: Route) => {
    const req = route.request();
    const raw = req.url();
    if (raw.startsWith('data:') || raw.startsWith('blob:')) return route.continue();
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return route.abort('blockedbyclient');
    }
    if (url.origin !== DOCUMENT_ORIGIN) return route.abort('blockedbyclient');
    if (req.method() !== 'GET' && req.method() !== 'HEAD') return route.fulfill({ status: 405, body: '' });
    const file = await fileForUrl(root, url);
    if (!file) return route.fulfill({ status: 404, contentType: 'text/plain', body: 'Not found' });
    const body = await readFile(file);
    return route.fulfill({
      status: 200,
      headers: {
        'content-type': TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream',
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
      },
      body,
    });
  };
  await context.route(
    () => true,
    (route) => answer(route).catch(() => route.abort('failed').catch(() => undefined)),
  );
  await context.routeWebSocket(
    () => true,
    (ws) => ws.close({ code: 1008, reason: 'Blocked' }),
  );
}
