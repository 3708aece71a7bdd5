import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { errorOf, processingApp } from '../../fixtures/api';
import { pagesText } from '../../fixtures/pdfs';
import { saveBody } from '../../fixtures/results';

/**
 * html-to-image and url-to-image on the real Chromium: the images are decoded (format, size, pixels) with sharp.
 * A local server stands for the web: refused by default (SSRF), reached by an app configured to allow private hosts.
 */
let api: Awaited<ReturnType<typeof processingApp>>;
let open: Awaited<ReturnType<typeof processingApp>>;
let site: Server;
let hits: string[] = [];
let siteUrl = '';

/** A page of one colour, taller than the default screen when asked. */
const colourPage = (colour: string, heightPx?: number) =>
  `<!doctype html><html><head><style>html,body{margin:0;background:${colour}}</style></head><body>${
    heightPx ? `<div style="height:${heightPx}px"></div>` : ''
  }</body></html>`;

beforeAll(async () => {
  api = await processingApp({ allowedEndpoints: ['conversion'] });
  // An intranet deployment: the operator lists the loopback range, nothing else private.
  open = await processingApp({ allowedEndpoints: ['conversion'], env: { OUTBOUND_ALLOW_LIST: '127.0.0.0/8' } });
  site = createServer((req, res) => {
    hits.push(req.url ?? '');
    res.setHeader('content-type', 'text/html');
    res.end(colourPage('#0000ff', 2000));
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
}, 60_000);
afterAll(async () => {
  await api.t.close();
  await open.t.close();
  await new Promise((r) => site.close(r));
});

type Res = { statusCode: number; rawPayload: Buffer; body: string; headers: Record<string, unknown> };
async function imageOf(res: Res) {
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  const meta = await sharp(res.rawPayload).metadata();
  return {
    meta,
    body: res.rawPayload,
    type: res.headers['content-type'],
    disposition: res.headers['content-disposition'],
  };
}
/** The colour of one pixel, as [r, g, b, a]. */
async function pixel(image: Buffer, x: number, y: number) {
  const { data, info } = await sharp(image).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const at = (y * info.width + x) * 4;
  return [...data.subarray(at, at + 4)];
}
const near = (got: number[], want: number[], tolerance = 8) =>
  expect(
    got.every((v, i) => Math.abs(v - want[i]!) <= tolerance),
    `${got} ≈ ${want}`,
  ).toBe(true);

describe('POST /conversion/html-to-image', () => {
  it('200: a PNG of the page, clipped to the asked screen, in the page colour', async () => {
    const shot = await imageOf(
      await api.post('/conversion/html-to-image', {
        html: colourPage('#ff0000', 3000),
        width: 320,
        height: 200,
        clip: 'true',
      }),
    );
    expect(shot.meta).toMatchObject({ format: 'png', width: 320, height: 200 });
    expect(shot.type).toBe('image/png');
    expect(shot.disposition).toBe('attachment; filename="page.png"');
    near(await pixel(shot.body, 10, 10), [255, 0, 0, 255]);
    near(await pixel(shot.body, 319, 199), [255, 0, 0, 255]);
  });

  it('200: without clip the whole page, as tall as its content; an index.html file names the image', async () => {
    const shot = await imageOf(
      await api.post('/conversion/html-to-image', { width: 400, height: 300 }, [
        {
          field: 'files',
          content: Buffer.from(colourPage('#00ff00', 1500)),
          filename: 'index.html',
          contentType: 'text/html',
        },
      ]),
    );
    expect(shot.meta).toMatchObject({ format: 'png', width: 400, height: 1500 });
    expect(shot.disposition).toBe('attachment; filename="index.png"');
    near(await pixel(shot.body, 200, 1400), [0, 255, 0, 255]);
    // A page shorter than the screen: the screen.
    const short = await imageOf(
      await api.post('/conversion/html-to-image', { html: '<p>x</p>', width: 400, height: 300 }),
    );
    expect(short.meta).toMatchObject({ width: 400, height: 300 });
  });

  it('200: jpeg and webp with quality; omitBackground gives transparent png pixels', async () => {
    const jpeg = await imageOf(
      await api.post('/conversion/html-to-image', {
        html: colourPage('#ff0000'),
        format: 'jpeg',
        quality: 80,
        width: 64,
        height: 48,
        clip: 'true',
      }),
    );
    expect(jpeg.meta).toMatchObject({ format: 'jpeg', width: 64, height: 48 });
    expect(jpeg.type).toBe('image/jpeg');
    near(await pixel(jpeg.body, 32, 24), [255, 0, 0, 255], 20);
    const webp = await imageOf(
      await api.post('/conversion/html-to-image', {
        html: colourPage('#0000ff'),
        format: 'webp',
        width: 100,
        height: 50,
        clip: 'true',
      }),
    );
    expect(webp.meta).toMatchObject({ format: 'webp', width: 100, height: 50 });
    expect(webp.disposition).toBe('attachment; filename="page.webp"');
    near(await pixel(webp.body, 50, 25), [0, 0, 255, 255], 20);
    const clear = await imageOf(
      await api.post('/conversion/html-to-image', {
        html: '<p>x</p>',
        omitBackground: 'true',
        width: 64,
        height: 64,
        clip: 'true',
      }),
    );
    expect(clear.meta.hasAlpha).toBe(true);
    expect((await pixel(clear.body, 60, 60))[3]).toBe(0);
  });

  it('200: Accept: application/json answers the image as base64', async () => {
    const res = await api.post(
      '/conversion/html-to-image',
      { html: colourPage('#ff0000'), width: 32, height: 32, clip: 'true' },
      [],
      { accept: 'application/json' },
    );
    expect(res.statusCode).toBe(200);
    const { data } = res.json() as { data: { fileName: string; mimeType: string; base64: string } };
    expect(data).toMatchObject({ fileName: 'page.png', mimeType: 'image/png' });
    expect(await sharp(Buffer.from(data.base64, 'base64')).metadata()).toMatchObject({ width: 32, height: 32 });
  });

  it('200: the page reaches nothing but its own assets (the html-to-pdf sandbox)', async () => {
    hits = [];
    const html = `<!doctype html><body style="background:#ff0000"><img src="${siteUrl}img.png">
      <iframe src="file:///etc/passwd"></iframe>
      <script>fetch('${siteUrl}fetch').catch(() => {}); try { new WebSocket('${siteUrl.replace('http', 'ws')}ws'); } catch {}</script></body>`;
    const shot = await imageOf(
      await api.post('/conversion/html-to-image', { html, width: 200, height: 100, clip: 'true' }),
    );
    expect(shot.meta).toMatchObject({ width: 200, height: 100 });
    await new Promise((r) => setTimeout(r, 200));
    expect(hits).toEqual([]);
  });

  it('422: bad values name the field and what is valid', async () => {
    const html = '<p>x</p>';
    for (const [fields, field] of [
      [{ width: 8 }, 'width'],
      [{ height: 20000 }, 'height'],
      [{ format: 'gif' }, 'format'],
      [{ format: 'jpeg', quality: 101 }, 'quality'],
      [{ quality: 50 }, 'quality'],
      [{ format: 'jpeg', omitBackground: 'true' }, 'omitBackground'],
      [{ waitDelay: -1 }, 'waitDelay'],
      [{ clip: 'maybe' }, 'clip'],
    ] as const) {
      const e = errorOf(await api.post('/conversion/html-to-image', { html, ...fields }));
      expect(e, JSON.stringify(fields)).toMatchObject({ status: 422, code: 'INVALID_INPUT' });
      expect(e.error, JSON.stringify(fields)).toMatch(new RegExp(`^${field}: `));
    }
    const none = errorOf(await api.post('/conversion/html-to-image', {}));
    expect(none).toMatchObject({ status: 422, code: 'INVALID_INPUT' });
  });
});

describe('POST /conversion/url-to-image', () => {
  it('403: a private address is refused as on url-to-pdf, before anything is fetched', async () => {
    hits = [];
    for (const url of [siteUrl, 'http://10.0.0.1/', 'http://169.254.169.254/latest/meta-data/', 'http://localhost/']) {
      const e = errorOf(await api.post('/conversion/url-to-image', { url }));
      expect(e, url).toMatchObject({ status: 403, code: 'URL_NOT_ALLOWED' });
    }
    expect(hits).toEqual([]);
  });

  it('200: where the operator allows the host, the page is captured (full height, blue); other private hosts not', async () => {
    for (const url of ['http://10.0.0.1/', 'http://169.254.169.254/latest/meta-data/']) {
      const e = errorOf(await open.post('/conversion/url-to-image', { url }));
      expect(e, url).toMatchObject({ status: 403, code: 'URL_NOT_ALLOWED' });
    }
    hits = [];
    const shot = await imageOf(await open.post('/conversion/url-to-image', { url: siteUrl, width: 300, height: 200 }));
    expect(hits).toContain('/');
    expect(shot.meta).toMatchObject({ format: 'png', width: 300, height: 2000 });
    expect(shot.disposition).toBe('attachment; filename="127.0.0.1.png"');
    near(await pixel(shot.body, 150, 1900), [0, 0, 255, 255]);
  });
});

describe('page checks on the HTML and URL routes (to PDF and to images)', () => {
  const late =
    '<!doctype html><p id="t">Early</p><script>setTimeout(() => { document.getElementById("t").textContent = "Late"; window.ready = true; }, 500)</script>';
  const throwing = '<!doctype html><p>Boom page</p><script>throw new Error("kaboom-7")</script>';

  it('waitForExpression: the capture waits until it is true', async () => {
    const res = await api.post('/conversion/html-to-pdf', { html: late, waitForExpression: 'window.ready === true' });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(pagesText(saveBody(res.rawPayload))[0]).toContain('Late');
    const shot = await api.post('/conversion/html-to-image', { html: late, waitForExpression: 'window.ready' });
    expect(shot.statusCode).toBe(200);
  });

  it('waitForExpression with javascript=false: 422 naming it', async () => {
    const e = errorOf(
      await api.post('/conversion/html-to-image', { html: late, waitForExpression: 'true', javascript: 'false' }),
    );
    expect(e).toMatchObject({ status: 422, code: 'INVALID_INPUT' });
    expect(e.error).toMatch(/^waitForExpression: /);
  });

  it('failOnConsoleExceptions: 422 INVALID_DOCUMENT naming the exception; off by default', async () => {
    for (const route of ['/conversion/html-to-pdf', '/conversion/html-to-image']) {
      const e = errorOf(await api.post(route, { html: throwing, failOnConsoleExceptions: 'true' }));
      expect(e, route).toMatchObject({ status: 422, code: 'INVALID_DOCUMENT' });
      expect(e.error, route).toContain('kaboom-7');
      expect((await api.post(route, { html: throwing })).statusCode, route).toBe(200);
    }
  });
});
