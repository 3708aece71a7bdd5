import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, processingApp } from '../../fixtures/api';
import { testDocument, testFolder } from '../../fixtures/documents';
import { pageCount, pagesText, run } from '../../fixtures/pdfs';
import { saveBody } from '../../fixtures/results';
import { makeZip } from '../../fixtures/zip';

/** HTML, URL and image conversions through the API; what must never be reached is watched by a local server. */
let api: Awaited<ReturnType<typeof processingApp>>;
let watcher: Server;
let hits: string[] = [];
let watched = '';
beforeAll(async () => {
  api = await processingApp({ maxPagesPerPdf: 50, allowedEndpoints: ['conversion'] });
  watcher = createServer((req, res) => {
    hits.push(req.url ?? '');
    res.end('<html><body>INTERNAL SECRET</body></html>');
  });
  await new Promise<void>((r) => watcher.listen(0, '127.0.0.1', r));
  watched = `http://127.0.0.1:${(watcher.address() as AddressInfo).port}`;
}, 60_000);
afterAll(async () => {
  await api.t.close();
  await new Promise((r) => watcher.close(r));
});

const pdfOf = (res: { statusCode: number; rawPayload: Buffer; body: string }) => {
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  return saveBody(res.rawPayload);
};
const pageSize = (f: string, page = 1) =>
  /Page\s+\d+\s+size:\s+([\d.]+) x ([\d.]+)/
    .exec(run('pdfinfo', ['-f', String(page), '-l', String(page), f]))!
    .slice(1)
    .map(Number);
const imagesIn = (f: string) => run('pdfimages', ['-list', f]).trim().split('\n').slice(2);

describe('html-to-pdf', () => {
  it('renders index.html with its asset found by name', async () => {
    const dir = await testFolder('html-with-asset');
    const file = pdfOf(
      await api.post('/conversion/html-to-pdf', {}, [
        { field: 'files', content: path.join(dir, 'index.html'), contentType: 'text/html' },
        { field: 'files', content: path.join(dir, 'image.png'), contentType: 'image/png' },
      ]),
    );
    expect(pagesText(file)[0]).toContain('Asset test');
    expect(imagesIn(file)).toHaveLength(1);
  });

  it('takes the html field; paper size and landscape are honoured', async () => {
    const html = '<!doctype html><html><body><h1>Field page</h1></body></html>';
    const a4 = pdfOf(await api.post('/conversion/html-to-pdf', { html }));
    expect(pagesText(a4)[0]).toContain('Field page');
    const [w, h] = pageSize(a4);
    // Chromium rounds paper to its device units: within a point of A4's 595.3 × 841.9.
    expect(Math.abs(w! - 595.3)).toBeLessThan(1.5);
    expect(Math.abs(h! - 841.9)).toBeLessThan(1.5);
    const letterLandscape = pdfOf(
      await api.post('/conversion/html-to-pdf', { html, paperSize: 'Letter', landscape: 'true' }),
    );
    const [lw, lh] = pageSize(letterLandscape);
    expect(Math.abs(lw! - 792)).toBeLessThan(1.5);
    expect(Math.abs(lh! - 612)).toBeLessThan(1.5);
  });

  it('a page cannot read local files or reach internal addresses', async () => {
    hits = [];
    const html = `<!doctype html><html><body><p>Visible</p>
      <iframe src="file:///etc/passwd"></iframe><img src="${watched}/img.png">
      <script>fetch('${watched}/fetch').catch(() => {}); new EventSource('${watched}/sse'); try { new WebSocket('${watched.replace('http', 'ws')}/ws'); } catch {}</script>
      </body></html>`;
    const file = pdfOf(await api.post('/conversion/html-to-pdf', { html }));
    const text = pagesText(file).join('\n');
    expect(text).toContain('Visible');
    expect(text).not.toMatch(/root:|INTERNAL SECRET/);
    await new Promise((r) => setTimeout(r, 200));
    expect(hits).toEqual([]);
  });

  it('Chinese, Japanese, Korean, Arabic and Hebrew are drawn with real glyphs and extracted back', async () => {
    const lines = {
      zh: '文档转换服务',
      ja: '日本語のテキスト',
      ko: '한국어 문서',
      ar: 'مرحبا بالعالم',
      he: 'שלום עולם',
    };
    const html = `<!doctype html><meta charset="utf-8"><body>${Object.entries(lines)
      .map(([lang, t]) => `<p lang="${lang}" dir="${lang === 'ar' || lang === 'he' ? 'rtl' : 'ltr'}">${t}</p>`)
      .join('')}</body>`;
    const file = pdfOf(await api.post('/conversion/html-to-pdf', { html }));
    // The CJK lines come from a CJK font (Noto CJK, which Chromium embeds as Type 3 glyphs), not from a Latin font's
    // empty boxes.
    const fonts = run('pdffonts', [file]);
    expect(fonts).toMatch(/CJK|Type 3/);
    const text = pagesText(file).join('\n').replace(/\s+/g, '');
    for (const [lang, t] of Object.entries(lines)) {
      // pdftotext writes right-to-left runs in logical order; compare without spaces.
      const want = t.replace(/\s+/g, '');
      expect(text.includes(want) || text.includes([...want].reverse().join('')), `${lang}: ${text}`).toBe(true);
    }
  });

  it('no page at all: 422 naming the fields', async () => {
    const e = errorOf(await api.post('/conversion/html-to-pdf', {}));
    expect(e).toMatchObject({ status: 422, code: 'INVALID_INPUT' });
    expect(e.error).toMatch(/html/);
  });
});

describe('markdown, text and EPUB (printed as HTML)', () => {
  it('markdown-to-pdf with a Gotenberg-style template: one page per Markdown file', async () => {
    const dir = await testFolder('pages-3-markdown');
    const file = pdfOf(
      await api.post(
        '/conversion/markdown-to-pdf',
        {},
        ['index.html', 'page_1.md', 'page_2.md', 'page_3.md'].map((n) => ({
          field: 'files',
          content: path.join(dir, n),
          contentType: 'text/plain',
        })),
      ),
    );
    expect(pageCount(file)).toBe(3);
    const text = pagesText(file);
    for (let i = 0; i < 3; i++) expect(text[i]).toMatch(new RegExp(`Page ${i + 1}`, 'i'));
  });

  it('markdown without a template: headings and tables rendered, raw HTML shown as text', async () => {
    const md =
      '# Quarterly report\n\n| Item | Price |\n|---|---|\n| Café | 3.50 |\n\n<script>document.write("INJECTED")</script>\n';
    const file = pdfOf(
      await api.post('/conversion/markdown-to-pdf', {}, [
        { field: 'files', content: Buffer.from(md), filename: 'report.md', contentType: 'text/markdown' },
      ]),
    );
    const text = pagesText(file).join('\n');
    expect(text).toContain('Quarterly report');
    expect(text).toContain('Café');
    expect(text).toContain('<script>');
    expect(text).not.toMatch(/^INJECTED$/m);
  });

  it('text-to-pdf keeps accents and long lines', async () => {
    const txt = `Élève à l'école — naïve façade\n${'long '.repeat(60)}end\n`;
    const file = pdfOf(
      await api.post('/conversion/text-to-pdf', {}, [
        { content: Buffer.from(txt), filename: 'notes.txt', contentType: 'text/plain' },
      ]),
    );
    const text = pagesText(file).join(' ');
    expect(text).toContain("Élève à l'école — naïve façade");
    expect(text).toContain('end');
  });

  it('epub-to-pdf prints the chapters in spine order', async () => {
    const chapter = (t: string) =>
      `<?xml version="1.0" encoding="utf-8"?><html xmlns="http://www.w3.org/1999/xhtml"><head><title>${t}</title></head><body><h1>${t}</h1><p>Text of ${t}.</p></body></html>`;
    const epub = makeZip([
      { name: 'mimetype', data: 'application/epub+zip', store: true },
      {
        name: 'META-INF/container.xml',
        data: '<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>',
      },
      {
        name: 'OEBPS/content.opf',
        data: '<?xml version="1.0"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0"><metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title>Two chapters</dc:title></metadata><manifest><item id="b" href="b.xhtml" media-type="application/xhtml+xml"/><item id="a" href="a.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="a"/><itemref idref="b"/></spine></package>',
      },
      { name: 'OEBPS/a.xhtml', data: chapter('Alpha chapter') },
      { name: 'OEBPS/b.xhtml', data: chapter('Bravo chapter') },
    ]);
    const file = pdfOf(
      await api.post('/conversion/epub-to-pdf', {}, [
        { content: epub, filename: 'book.epub', contentType: 'application/epub+zip' },
      ]),
    );
    const text = pagesText(file).join('\n');
    expect(text.indexOf('Alpha chapter')).toBeGreaterThanOrEqual(0);
    expect(text.indexOf('Bravo chapter')).toBeGreaterThan(text.indexOf('Alpha chapter'));
  });
});

describe('url-to-pdf', () => {
  it('refuses loopback, private and metadata addresses before fetching anything', async () => {
    hits = [];
    for (const url of [
      `${watched}/`,
      'http://10.0.0.1/',
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]/',
      'http://localhost/',
    ]) {
      const e = errorOf(await api.post('/conversion/url-to-pdf', { url }));
      expect(e.status, url).toBe(403);
      expect(e.code, url).toBe('URL_NOT_ALLOWED');
    }
    expect(hits).toEqual([]);
  });

  it('refuses other schemes and malformed URLs with a 4xx naming the URL', async () => {
    for (const url of ['file:///etc/passwd', 'ftp://example.com/x', 'javascript:alert(1)', 'not a url']) {
      const e = errorOf(await api.post('/conversion/url-to-pdf', { url }));
      expect([403, 422], url).toContain(e.status);
    }
  });

  it('a file sent to url-to-pdf is refused', async () => {
    const e = errorOf(
      await api.post('/conversion/url-to-pdf', { url: 'https://example.com' }, [
        { content: await testDocument('page_1.pdf') },
      ]),
    );
    expect(e.status).toBe(422);
  });
});

describe('image-to-pdf', () => {
  const img = (color: string, w: number, h: number) =>
    sharp({ create: { width: w, height: h, channels: 3, background: color } })
      .png()
      .toBuffer();

  it('one page per image in the order sent; letter pages; auto orientation', async () => {
    const file = pdfOf(
      await api.post('/conversion/image-to-pdf', { pageSize: 'letter' }, [
        { field: 'files', content: await img('#ff0000', 400, 300), filename: 'wide.png', contentType: 'image/png' },
        { field: 'files', content: await img('#0000ff', 300, 400), filename: 'tall.png', contentType: 'image/png' },
      ]),
    );
    expect(pageCount(file)).toBe(2);
    expect(pageSize(file, 1).map(Math.round)).toEqual([792, 612]);
    expect(pageSize(file, 2).map(Math.round)).toEqual([612, 792]);
    expect(imagesIn(file)).toHaveLength(2);
  });

  it('a PDF among the images: 415 naming the file', async () => {
    const e = errorOf(
      await api.post('/conversion/image-to-pdf', {}, [
        { field: 'files', content: await img('#ff0000', 10, 10), filename: 'a.png', contentType: 'image/png' },
        { field: 'files', content: await testDocument('page_1.pdf'), filename: 'b.png' },
      ]),
    );
    expect(e).toMatchObject({ status: 415, code: 'UNSUPPORTED_FORMAT' });
    expect(e.error).toMatch(/files\[2\] \("b\.png"\)/);
  });

  it('more images than the plan allows pages: 422 before any work', async () => {
    const small = await processingApp({ maxPagesPerPdf: 2, allowedEndpoints: ['conversion'] });
    try {
      const one = await img('#00ff00', 10, 10);
      const e = errorOf(
        await small.post(
          '/conversion/image-to-pdf',
          {},
          [1, 2, 3].map((i) => ({ field: 'files', content: one, filename: `${i}.png`, contentType: 'image/png' })),
        ),
      );
      expect(e).toMatchObject({ status: 422, code: 'PAGE_LIMIT_EXCEEDED' });
    } finally {
      await small.t.close();
    }
  });
});
