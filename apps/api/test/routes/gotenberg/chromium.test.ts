import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { testFolder } from '../../fixtures/documents';
import { pageCount, pagesText, run } from '../../fixtures/pdfs';
import { saveBody } from '../../fixtures/results';
import type { FormFile } from '../../fixtures/multipart';
import { gotenbergAppForSuite } from './gotenberg-api';

/**
 * /gotenberg/forms/chromium/convert/{html,url,markdown} as Gotenberg's documentation calls them
 * (`--form files=@index.html`), on the real Chromium; outputs read back with poppler.
 */
const api = gotenbergAppForSuite();

type Res = { statusCode: number; rawPayload: Buffer; body: string; headers: Record<string, unknown> };
const pdfOf = (res: Res) => {
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  expect(res.headers['content-type']).toBe('application/pdf');
  return saveBody(res.rawPayload);
};
const pageSize = (f: string) =>
  /Page\s+\d+\s+size:\s+([\d.]+) x ([\d.]+)/
    .exec(run('pdfinfo', ['-f', '1', '-l', '1', f]))!
    .slice(1)
    .map(Number) as [number, number];
const near = (got: [number, number], want: [number, number]) =>
  expect(Math.abs(got[0] - want[0]) < 1.5 && Math.abs(got[1] - want[1]) < 1.5, `${got} ≈ ${want}`).toBe(true);
const folderFiles = async (folder: Parameters<typeof testFolder>[0], names: string[]): Promise<FormFile[]> => {
  const dir = await testFolder(folder);
  return names.map((n) => ({ content: path.join(dir, n), filename: n, contentType: 'text/html' }));
};
const indexHtml = (html: string): FormFile => ({
  content: Buffer.from(html),
  filename: 'index.html',
  contentType: 'text/html',
});

describe('POST /forms/chromium/convert/html', () => {
  it('200: index.html and its asset, on Letter paper by default (Gotenberg 8.5 x 11 in)', async () => {
    const file = pdfOf(
      await api.gotenberg(
        '/forms/chromium/convert/html',
        {},
        await folderFiles('html-with-asset', ['index.html', 'image.png']),
      ),
    );
    expect(pagesText(file)[0]).toContain('Asset test');
    expect(run('pdfimages', ['-list', file]).trim().split('\n').slice(2)).toHaveLength(1);
    near(pageSize(file), [612, 792]);
  });

  it('200: paper size in units, landscape; print media by default, screen when emulated', async () => {
    const files = await folderFiles('feature-rich-html', ['index.html']);
    const a4 = pdfOf(
      await api.gotenberg(
        '/forms/chromium/convert/html',
        { paperWidth: '210mm', paperHeight: '297mm', landscape: 'true' },
        files,
      ),
    );
    near(pageSize(a4), [841.9, 595.3]);
    expect(pagesText(a4)[0]).toContain("Emulated media type is 'print'.");
    const screen = pdfOf(await api.gotenberg('/forms/chromium/convert/html', { emulatedMediaType: 'screen' }, files));
    expect(pagesText(screen)[0]).toContain("Emulated media type is 'screen'.");
    expect(pagesText(screen)[0]).not.toContain("Emulated media type is 'print'.");
  });

  it("200: preferCssPageSize takes the page's @page size; waitDelay lets a late script finish", async () => {
    const sized = indexHtml('<!doctype html><style>@page { size: 4in 6in }</style><p>Postcard</p>');
    near(pageSize(pdfOf(await api.gotenberg('/forms/chromium/convert/html', {}, [sized]))), [612, 792]);
    near(
      pageSize(pdfOf(await api.gotenberg('/forms/chromium/convert/html', { preferCssPageSize: 'true' }, [sized]))),
      [288, 432],
    );
    const late = indexHtml(
      '<!doctype html><p id="t">Early</p><script>setTimeout(() => { document.getElementById("t").textContent = "Late"; }, 400)</script>',
    );
    const waited = pdfOf(await api.gotenberg('/forms/chromium/convert/html', { waitDelay: '1s' }, [late]));
    expect(pagesText(waited)[0]).toContain('Late');
  });

  it('400: no index.html; bad cookies and an unknown field are named', async () => {
    const none = await api.gotenberg('/forms/chromium/convert/html', {}, [
      { content: Buffer.from('<p>x</p>'), filename: 'page.html', contentType: 'text/html' },
    ]);
    expect(none.statusCode).toBe(400);
    expect(none.body).toContain("form file 'index.html' is required");
    const fields = await api.gotenberg(
      '/forms/chromium/convert/html',
      { cookies: '[{"name":"a","value":"b"}]', paperFormat: 'A4', scale: '3' },
      [indexHtml('<p>x</p>')],
    );
    expect(fields.statusCode).toBe(400);
    expect(fields.headers['content-type']).toBe('text/plain; charset=UTF-8');
    expect(fields.body).toContain("form field 'cookies' is invalid");
    expect(fields.body).toContain("form field 'paperFormat' is not supported by DocFlow on this route");
    expect(fields.body).toContain("form field 'scale' is invalid (got '3')");
  });
});

describe('POST /forms/chromium/convert/markdown', () => {
  it('200: the Gotenberg template with three Markdown files; nativePageRanges keeps pages 2-3', async () => {
    const files = await folderFiles('pages-3-markdown', ['index.html', 'page_1.md', 'page_2.md', 'page_3.md']);
    const all = pdfOf(await api.gotenberg('/forms/chromium/convert/markdown', {}, files));
    expect(pageCount(all)).toBe(3);
    const some = pdfOf(await api.gotenberg('/forms/chromium/convert/markdown', { nativePageRanges: '2-3' }, files));
    expect(pagesText(some).map((t) => t.trim())).toEqual(['Page 2', 'Page 3']);
    const beyond = await api.gotenberg('/forms/chromium/convert/markdown', { nativePageRanges: '5' }, files);
    expect(beyond.statusCode).toBe(400);
    expect(beyond.body).toBe("The page ranges '5' (nativePageRanges) exceeds the page count");
    const syntax = await api.gotenberg('/forms/chromium/convert/markdown', { nativePageRanges: 'two' }, files);
    expect(syntax.statusCode).toBe(400);
    expect(syntax.body).toBe("Chromium does not handle the page ranges 'two' (nativePageRanges) syntax");
  });
});

describe("Gotenberg's answers on the Chromium routes", () => {
  it('400: "Markdown file(s) not found: …" naming each file the template asks for and was not sent', async () => {
    const template = indexHtml('<!doctype html>{{ toHTML "intro.md" }}{{ toHTML "missing.md" }}{{ toHTML "gone.md" }}');
    const res = await api.gotenberg('/forms/chromium/convert/markdown', {}, [
      template,
      { content: Buffer.from('# Intro'), filename: 'intro.md', contentType: 'text/markdown' },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toBe('text/plain; charset=UTF-8');
    expect(res.body).toBe("Markdown file(s) not found: 'missing.md'\n'gone.md'");
  });

  it('400: "Invalid form data: …" for the form\'s problems, all of them at once', async () => {
    const res = await api.gotenberg('/forms/chromium/convert/html', { landscape: 'sideways', waitDelay: 'soon' }, [
      indexHtml('<p>x</p>'),
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.body).toMatch(/^Invalid form data: /);
    expect(res.body).toContain("form field 'landscape' is invalid (got 'sideways')");
    expect(res.body).toContain("form field 'waitDelay' is invalid (got 'soon')");
  });
});

describe('POST /forms/chromium/convert/url', () => {
  it('403: a private address is refused, as on /conversion/url-to-pdf; 400 without url', async () => {
    const res = await api.gotenberg('/forms/chromium/convert/url', { url: 'http://127.0.0.1:9/' });
    expect(res.statusCode).toBe(403);
    expect(res.headers['content-type']).toBe('text/plain; charset=UTF-8');
    // Cookies and headers change what a request carries, not where it may go.
    const dressed = await api.gotenberg('/forms/chromium/convert/url', {
      url: 'http://127.0.0.1:9/',
      cookies: JSON.stringify([{ name: 'a', value: 'b', domain: '127.0.0.1' }]),
      extraHttpHeaders: JSON.stringify({ 'X-Forwarded-For': '8.8.8.8' }),
    });
    expect(dressed.statusCode).toBe(403);
    const none = await api.gotenberg('/forms/chromium/convert/url', {});
    expect(none.statusCode).toBe(400);
    expect(none.body).toContain("form field 'url' is required");
  });

  it("400: a file:// URL, in Gotenberg's words, on both url routes", async () => {
    for (const route of ['/forms/chromium/convert/url', '/forms/chromium/screenshot/url']) {
      const res = await api.gotenberg(route, { url: 'file:///etc/passwd' });
      expect(res.statusCode).toBe(400);
      expect(res.body).toBe(
        'file:// URLs are not accepted on this route. Use the /convert/html or /convert/markdown routes to render local HTML',
      );
    }
  });
});

describe('POST /forms/chromium/screenshot/{html,url,markdown}', () => {
  const colourPage = (colour: string, heightPx = 0) =>
    indexHtml(
      `<!doctype html><style>html,body{margin:0;background:${colour}}</style><div style="height:${heightPx}px"></div>`,
    );
  async function imageOf(res: Res, type: string) {
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toBe(type);
    return { meta: await sharp(res.rawPayload).metadata(), body: res.rawPayload };
  }
  async function centre(image: Buffer) {
    const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const at = (Math.floor(info.height / 2) * info.width + Math.floor(info.width / 2)) * 3;
    return [...data.subarray(at, at + 3)];
  }
  const close = (got: number[], want: number[]) =>
    expect(
      got.every((v, i) => Math.abs(v - want[i]!) <= 20),
      `${got} ≈ ${want}`,
    ).toBe(true);

  it("200: Gotenberg's defaults: an 800-wide png of the whole page, named by a UUID; metered as html-to-image", async () => {
    const trace = `shot-${Date.now()}`;
    const res = await api.gotenberg('/forms/chromium/screenshot/html', {}, [colourPage('#ff0000', 1000)], {
      authorization: api.basic,
      'gotenberg-trace': trace,
    });
    const shot = await imageOf(res, 'image/png');
    expect(shot.meta).toMatchObject({ format: 'png', width: 800, height: 1000 });
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="[0-9a-f-]{36}\.png"$/);
    close(await centre(shot.body), [255, 0, 0]);
    let rows: Array<{ endpoint: string; endpoint_group: string }> = [];
    for (let i = 0; i < 40 && rows.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 25));
      await api.t.app.apiKeyGuard.meter.flush();
      rows = await api.t.database.sql.query('select endpoint, endpoint_group from usage_events where request_id = $1', [
        trace,
      ]);
    }
    expect(rows).toEqual([{ endpoint: '/conversion/html-to-image', endpoint_group: 'conversion' }]);
  });

  it('200: width, height and clip; jpeg with quality and webp; Gotenberg-Output-Filename', async () => {
    const page = [colourPage('#0000ff', 2000)];
    const clipped = await imageOf(
      await api.gotenberg('/forms/chromium/screenshot/html', { width: 300, height: 120, clip: 'true' }, page),
      'image/png',
    );
    expect(clipped.meta).toMatchObject({ width: 300, height: 120 });
    const jpeg = await imageOf(
      await api.gotenberg(
        '/forms/chromium/screenshot/html',
        { format: 'jpeg', quality: 50, width: 64, height: 64, clip: 'true' },
        page,
      ),
      'image/jpeg',
    );
    expect(jpeg.meta).toMatchObject({ format: 'jpeg', width: 64, height: 64 });
    close(await centre(jpeg.body), [0, 0, 255]);
    const res = await api.gotenberg(
      '/forms/chromium/screenshot/html',
      { format: 'webp', width: 90, height: 40, clip: 'true', optimizeForSpeed: 'true' },
      page,
      { authorization: api.basic, 'gotenberg-output-filename': 'banner' },
    );
    const webp = await imageOf(res, 'image/webp');
    expect(webp.meta).toMatchObject({ format: 'webp', width: 90, height: 40 });
    expect(res.headers['content-disposition']).toBe('attachment; filename="banner.webp"');
  });

  it("200: selector captures that element's box only, below the fold; 400 when nothing visible matches", async () => {
    const page = indexHtml(
      '<!doctype html><style>html,body{margin:0;background:#ff0000}</style><div style="height:1500px"></div>' +
        '<div id="badge" style="margin-left:40px;width:200px;height:100px;background:#00ff00"></div>' +
        '<div id="hidden" style="display:none">x</div>',
    );
    const res = await api.gotenberg('/forms/chromium/screenshot/html', { selector: '#badge' }, [page]);
    const shot = await imageOf(res, 'image/png');
    expect(shot.meta).toMatchObject({ width: 200, height: 100 });
    close(await centre(shot.body), [0, 255, 0]);
    for (const selector of ['#nothing', '#hidden']) {
      const miss = await api.gotenberg('/forms/chromium/screenshot/html', { selector }, [page]);
      expect(miss.statusCode).toBe(400);
      expect(miss.headers['content-type']).toBe('text/plain; charset=UTF-8');
      expect(miss.body).toBe(`The selector '${selector}' (selector) matched no element with a visible box`);
    }
  });

  it('200: deviceScaleFactor draws device pixels: twice as wide and tall, devicePixelRatio 2 on the page', async () => {
    const page = indexHtml(
      '<!doctype html><style>html,body{margin:0;background:#ffffff}</style><div id="r" style="height:100px"></div>' +
        '<script>document.body.style.background = devicePixelRatio === 2 ? "#00ff00" : "#ff0000"</script>',
    );
    const res = await api.gotenberg(
      '/forms/chromium/screenshot/html',
      { width: 200, height: 100, clip: 'true', deviceScaleFactor: '2' },
      [page],
    );
    const shot = await imageOf(res, 'image/png');
    expect(shot.meta).toMatchObject({ width: 400, height: 200 });
    close(await centre(shot.body), [0, 255, 0]);
    const bad = await api.gotenberg('/forms/chromium/screenshot/html', { deviceScaleFactor: '9' }, [page]);
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain("form field 'deviceScaleFactor' is invalid (got '9')");
  });

  it('200: markdown through its template', async () => {
    const files = await folderFiles('pages-3-markdown', ['index.html', 'page_1.md', 'page_2.md', 'page_3.md']);
    const shot = await imageOf(
      await api.gotenberg('/forms/chromium/screenshot/markdown', { width: 500, height: 200, clip: 'true' }, files),
      'image/png',
    );
    expect(shot.meta).toMatchObject({ width: 500, height: 200 });
  });

  it('400: bad values and PDF-only or unknown fields are named, in plain text', async () => {
    const res = await api.gotenberg(
      '/forms/chromium/screenshot/html',
      { format: 'gif', width: '8', quality: '101', clip: 'maybe', paperWidth: '8.5', cookies: '[{"name":"a"}]' },
      [colourPage('#fff')],
    );
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toBe('text/plain; charset=UTF-8');
    expect(res.body).toContain("form field 'format' is invalid (got 'gif')");
    expect(res.body).toContain("form field 'width' is invalid (got '8'): expected a whole number from 16 to 4096");
    expect(res.body).toContain("form field 'quality' is invalid (got '101')");
    expect(res.body).toContain("form field 'clip' is invalid (got 'maybe')");
    expect(res.body).toContain("form field 'paperWidth' is not supported by DocFlow on this route");
    expect(res.body).toContain("form field 'cookies' is invalid");
    const jpeg = await api.gotenberg('/forms/chromium/screenshot/html', { format: 'jpeg', omitBackground: 'true' }, [
      colourPage('#fff'),
    ]);
    expect(jpeg.statusCode).toBe(400);
    expect(jpeg.body).toContain("form field 'omitBackground' is invalid with format 'jpeg'");
  });

  it('403: a private address is refused, as on /conversion/url-to-image; 400 without url', async () => {
    const res = await api.gotenberg('/forms/chromium/screenshot/url', { url: 'http://127.0.0.1:9/' });
    expect(res.statusCode).toBe(403);
    expect(res.headers['content-type']).toBe('text/plain; charset=UTF-8');
    const none = await api.gotenberg('/forms/chromium/screenshot/url', {});
    expect(none.statusCode).toBe(400);
    expect(none.body).toContain("form field 'url' is required");
  });
});
