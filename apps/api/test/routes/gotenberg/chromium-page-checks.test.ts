import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageBoxesOf, pageCount, pagesText } from '../../fixtures/pdfs';
import { saveBody } from '../../fixtures/results';
import type { FormFile } from '../../fixtures/multipart';
import { gotenbergAppForSuite } from './gotenberg-api';

/**
 * The page fields of Gotenberg's Chromium routes: header.html and footer.html, waitForExpression,
 * failOnConsoleExceptions, failOnHttpStatusCodes (409 Conflict, as Gotenberg answers) and omitBackground, on the real
 * Chromium. The app lets renders reach private hosts, so a local server can stand for a site answering 404.
 */
const api = gotenbergAppForSuite({ env: { URL_TO_PDF_ALLOW_PRIVATE: 'true' } });
let site: Server;
let base = '';
beforeAll(async () => {
  site = createServer((req, res) => {
    res.statusCode = req.url === '/missing' ? 404 : 200;
    res.setHeader('content-type', 'text/html');
    if (req.url === '/scoped') {
      // The main document's tenant header, and a script whose request carries its own.
      res.end(
        `<!doctype html><p>Page tenant ${req.headers['x-tenant'] ?? 'none'}</p><script src="/api/tenant.js"></script>`,
      );
      return;
    }
    if (req.url === '/api/tenant.js') {
      res.setHeader('content-type', 'text/javascript');
      const tenant = JSON.stringify(
        `Script tenant ${req.headers['x-tenant'] ?? 'none'} ${req.headers['x-all'] ?? 'none'}`,
      );
      res.end(`document.body.insertAdjacentHTML('beforeend', '<p>' + ${tenant} + '</p>')`);
      return;
    }
    if (req.url === '/echo') {
      // What the page's request carried, printed back.
      res.end(
        `<!doctype html><p>Cookie ${req.headers.cookie ?? 'none'}</p><p>Tenant ${req.headers['x-tenant'] ?? 'none'}</p>`,
      );
      return;
    }
    res.end(`<!doctype html><p>Status page ${res.statusCode}</p>`);
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((r) => site.close(r)));

type Res = { statusCode: number; rawPayload: Buffer; body: string };
const pdfOf = (res: Res) => {
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  return saveBody(res.rawPayload);
};
const html = (filename: string, content: string): FormFile => ({
  content: Buffer.from(content),
  filename,
  contentType: 'text/html',
});

describe('header.html and footer.html', () => {
  it('200: drawn on every page, with the page number and count', async () => {
    const file = pdfOf(
      await api.gotenberg('/forms/chromium/convert/html', { marginTop: '1', marginBottom: '1' }, [
        html('index.html', '<!doctype html><p>First</p><p style="break-before: page">Second</p>'),
        html('header.html', '<p style="font-size: 12px">Quarterly header</p>'),
        html(
          'footer.html',
          '<p style="font-size: 12px">Page <span class="pageNumber"></span> of <span class="totalPages"></span></p>',
        ),
      ]),
    );
    expect(pageCount(file)).toBe(2);
    const text = pagesText(file);
    expect(text[0]).toContain('Quarterly header');
    expect(text[0]).toContain('Page 1 of 2');
    expect(text[1]).toContain('Quarterly header');
    expect(text[1]).toContain('Page 2 of 2');
  });

  it('400 naming the templates when one loads a stylesheet from the network (Chromium cannot print it); a local one prints', async () => {
    const withHeader = (header: string) =>
      api.gotenberg('/forms/chromium/convert/html', { marginTop: '1' }, [
        html('index.html', '<!doctype html><p>Body text</p>'),
        html('header.html', header),
      ]);
    const remote = await withHeader('<link rel="stylesheet" href="https://example.com/x.css"><p>Head</p>');
    expect(remote.statusCode).toBe(400);
    expect(remote.body).toMatch(/^header\.html\/footer\.html .*cannot load resources .* from the network/);
    const inline = await withHeader('<style>p { font-size: 12px }</style><p>Inline header</p>');
    expect(pagesText(pdfOf(inline))[0]).toContain('Inline header');
  });

  it('200: on a URL too; any other file on the url route is refused', async () => {
    const file = pdfOf(
      await api.gotenberg('/forms/chromium/convert/url', { url: `${base}/` }, [
        html('footer.html', '<p style="font-size: 12px">Site footer</p>'),
      ]),
    );
    expect(pagesText(file)[0]).toContain('Status page 200');
    expect(pagesText(file)[0]).toContain('Site footer');
    const other = await api.gotenberg('/forms/chromium/convert/url', { url: `${base}/` }, [
      html('page.html', '<p>x</p>'),
    ]);
    expect(other.statusCode).toBe(400);
    expect(other.body).toContain("form file 'page.html' is not taken by this route");
  });
});

describe('waitForExpression and failOnConsoleExceptions', () => {
  const late = html(
    'index.html',
    '<!doctype html><p id="t">Early</p><script>setTimeout(() => { document.getElementById("t").textContent = "Late"; window.ready = true; }, 500)</script>',
  );

  it('200: the capture waits until the expression is true', async () => {
    const file = pdfOf(
      await api.gotenberg('/forms/chromium/convert/html', { waitForExpression: 'window.ready === true' }, [late]),
    );
    expect(pagesText(file)[0]).toContain('Late');
    const shot = await api.gotenberg(
      '/forms/chromium/screenshot/html',
      { waitForExpression: 'window.ready === true' },
      [late],
    );
    expect(shot.statusCode).toBe(200);
  });

  it('200: waitWindowStatus waits until the page sets window.status to the value', async () => {
    const status = html(
      'index.html',
      '<!doctype html><p id="t">Early</p><script>setTimeout(() => { document.getElementById("t").textContent = "Late"; window.status = "ready"; }, 500)</script>',
    );
    const file = pdfOf(await api.gotenberg('/forms/chromium/convert/html', { waitWindowStatus: 'ready' }, [status]));
    expect(pagesText(file)[0]).toContain('Late');
    expect(pagesText(pdfOf(await api.gotenberg('/forms/chromium/convert/html', {}, [status])))[0]).toContain('Early');
  });

  it('400: an expression that cannot be evaluated is named', async () => {
    const res = await api.gotenberg('/forms/chromium/convert/html', { waitForExpression: 'window.(' }, [late]);
    expect(res.statusCode).toBe(400);
    expect(res.body).toBe("The expression 'window.(' (waitForExpression) returned an exception or undefined");
  });

  it('409: an uncaught exception fails the render when asked, as in Gotenberg; ignored otherwise', async () => {
    const throwing = html('index.html', '<!doctype html><p>Boom page</p><script>throw new Error("kaboom-42")</script>');
    const res = await api.gotenberg('/forms/chromium/convert/html', { failOnConsoleExceptions: 'true' }, [throwing]);
    expect(res.statusCode).toBe(409);
    expect(res.body).toMatch(/^Chromium console exceptions:\n.*kaboom-42/);
    const shot = await api.gotenberg('/forms/chromium/screenshot/html', { failOnConsoleExceptions: 'true' }, [
      throwing,
    ]);
    expect(shot.statusCode).toBe(409);
    expect(pagesText(pdfOf(await api.gotenberg('/forms/chromium/convert/html', {}, [throwing])))[0]).toContain(
      'Boom page',
    );
  });
});

describe('failOnHttpStatusCodes', () => {
  it('409 on a 404 page by default ([499,599]) and when listed; the page is printed when the list leaves it out', async () => {
    const url = `${base}/missing`;
    const byDefault = await api.gotenberg('/forms/chromium/convert/url', { url });
    expect(byDefault.statusCode).toBe(409);
    expect(byDefault.body).toBe('Invalid HTTP status code from the main page: 404: Not Found');
    expect(
      (await api.gotenberg('/forms/chromium/convert/url', { url, failOnHttpStatusCodes: '[404]' })).statusCode,
    ).toBe(409);
    const printed = pdfOf(await api.gotenberg('/forms/chromium/convert/url', { url, failOnHttpStatusCodes: '[500]' }));
    expect(pagesText(printed)[0]).toContain('Status page 404');
    const none = await api.gotenberg('/forms/chromium/screenshot/url', { url, failOnHttpStatusCodes: '[]' });
    expect(none.statusCode).toBe(200);
  });

  it('400: a value that is not a list of statuses is named', async () => {
    const res = await api.gotenberg('/forms/chromium/convert/url', { url: `${base}/`, failOnHttpStatusCodes: '["x"]' });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain("form field 'failOnHttpStatusCodes' is invalid");
  });
});

describe('omitBackground', () => {
  it('400 without printBackground on a PDF; a transparent screenshot', async () => {
    const page = html('index.html', '<!doctype html><p>Clear</p>');
    const res = await api.gotenberg('/forms/chromium/convert/html', { omitBackground: 'true' }, [page]);
    expect(res.statusCode).toBe(400);
    expect(res.body).toBe('omitBackground requires printBackground set to true');
    pdfOf(
      await api.gotenberg('/forms/chromium/convert/html', { omitBackground: 'true', printBackground: 'true' }, [page]),
    );
    const shot = await api.gotenberg(
      '/forms/chromium/screenshot/html',
      { omitBackground: 'true', width: 64, height: 64, clip: 'true' },
      [page],
    );
    expect(shot.statusCode).toBe(200);
    const { data, info } = await sharp(shot.rawPayload).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
    expect(data[(info.width * info.height - 1) * 4 + 3]).toBe(0);
  });
});

describe('cookies and extraHttpHeaders', () => {
  it('200: the requests of the page carry them', async () => {
    const file = pdfOf(
      await api.gotenberg('/forms/chromium/convert/url', {
        url: `${base}/echo`,
        cookies: JSON.stringify([{ name: 'session', value: 'abc123', domain: '127.0.0.1' }]),
        extraHttpHeaders: JSON.stringify({ 'X-Tenant': 'acme' }),
      }),
    );
    const text = pagesText(file)[0]!;
    expect(text).toContain('Cookie session=abc123');
    expect(text).toContain('Tenant acme');
  });

  it('200: a cookie\'s sameSite in any case, as Gotenberg takes it ("lax", "STRICT"); another word is named', async () => {
    const cookies = [
      { name: 'a', value: 'one', domain: '127.0.0.1', sameSite: 'lax' },
      { name: 'b', value: 'two', domain: '127.0.0.1', sameSite: 'STRICT' },
    ];
    const text = pagesText(
      pdfOf(
        await api.gotenberg('/forms/chromium/convert/url', { url: `${base}/echo`, cookies: JSON.stringify(cookies) }),
      ),
    )[0]!;
    expect(text).toContain('a=one');
    expect(text).toContain('b=two');
    const res = await api.gotenberg('/forms/chromium/convert/url', {
      url: `${base}/echo`,
      cookies: JSON.stringify([{ ...cookies[0], sameSite: 'sometimes' }]),
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain("form field 'cookies' is invalid");
  });

  it('200: a scoped header (";scope=<regex>") goes only with the requests whose URL matches; the others with all', async () => {
    const text = pagesText(
      pdfOf(
        await api.gotenberg('/forms/chromium/convert/url', {
          url: `${base}/scoped`,
          extraHttpHeaders: JSON.stringify({ 'X-Tenant': 'acme; scope=.*/api/.*\\.js', 'X-All': 'everyone' }),
        }),
      ),
    )[0]!;
    expect(text).toContain('Page tenant none');
    expect(text).toContain('Script tenant acme everyone');
  });

  it('400: a header that would change where or how a request goes, or a bad scope, is named', async () => {
    for (const [headers, says] of [
      [{ Host: 'internal.example' }, "'Host' cannot be set by the caller"],
      [{ 'Proxy-Authorization': 'x' }, "'Proxy-Authorization' cannot be set by the caller"],
      [{ 'X-Tenant': 'acme;scope=(unclosed' }, "invalid scope regex pattern for header 'X-Tenant'"],
      [{ 'X-Tenant': 'acme;scope=' }, "invalid scope for header 'X-Tenant'"],
      [['not', 'an object'], 'expected a JSON object'],
    ] as const) {
      const res = await api.gotenberg('/forms/chromium/convert/url', {
        url: `${base}/echo`,
        extraHttpHeaders: JSON.stringify(headers),
      });
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain("form field 'extraHttpHeaders'");
      expect(res.body).toContain(says);
    }
  });
});

describe('singlePage and emulatedMediaFeatures', () => {
  // 3000 CSS px of content: about 31 in, three Letter sheets and a bit when printed on Letter.
  const tall = html(
    'index.html',
    '<!doctype html><style>body{margin:0}</style><p>Top line</p><div style="height:2900px"></div><p>Bottom line</p>',
  );

  it('200: singlePage prints the whole page on one sheet as tall as its content plus the margins', async () => {
    const paged = pdfOf(await api.gotenberg('/forms/chromium/convert/html', {}, [tall]));
    expect(pageCount(paged)).toBeGreaterThanOrEqual(3);
    const single = pdfOf(
      await api.gotenberg('/forms/chromium/convert/html', { singlePage: 'true', marginTop: '1', marginBottom: '1' }, [
        tall,
      ]),
    );
    expect(pageCount(single)).toBe(1);
    const [box] = await pageBoxesOf(single);
    // Letter's width kept; the height is the content (≥ 3000 px = 31.25 in) plus 2 in of margins, in points.
    expect(box!.media.width).toBeCloseTo(8.5 * 72, 0);
    expect(box!.media.height).toBeGreaterThan((3000 / 96 + 2) * 72 - 2);
    expect(box!.media.height).toBeLessThan((3000 / 96 + 2) * 72 + 200);
    const text = pagesText(single)[0]!;
    expect(text).toContain('Top line');
    expect(text).toContain('Bottom line');
  });

  it('200: the page is laid out with the media features asked (dark scheme); 400 on a value that is not an object', async () => {
    const themed = html(
      'index.html',
      '<!doctype html><style>.dark{display:none}@media (prefers-color-scheme: dark){.dark{display:block}.light{display:none}}</style>' +
        '<p class="light">Scheme light</p><p class="dark">Scheme dark</p>',
    );
    const dark = pagesText(
      pdfOf(
        await api.gotenberg(
          '/forms/chromium/convert/html',
          { emulatedMediaFeatures: JSON.stringify({ 'prefers-color-scheme': 'dark' }) },
          [themed],
        ),
      ),
    )[0]!;
    expect(dark).toContain('Scheme dark');
    expect(dark).not.toContain('Scheme light');
    const light = pagesText(pdfOf(await api.gotenberg('/forms/chromium/convert/html', {}, [themed])))[0]!;
    expect(light).toContain('Scheme light');
    const shot = await api.gotenberg(
      '/forms/chromium/screenshot/html',
      { emulatedMediaFeatures: JSON.stringify({ 'prefers-color-scheme': 'dark' }) },
      [themed],
    );
    expect(shot.statusCode).toBe(200);
    const bad = await api.gotenberg('/forms/chromium/convert/html', { emulatedMediaFeatures: '["dark"]' }, [themed]);
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatch(/emulatedMediaFeatures/);
  });
});
