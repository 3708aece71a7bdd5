import { execFileSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildMarkdownHtml } from '../../src/core/convert/markdown';
import { buildTextHtml } from '../../src/core/convert/text';
import type { EngineContext } from '../../src/core/engine-module';
import { EngineError } from '../../src/core/errors';
import type { Engine } from '../../src/core/interfaces';
import type { PrintOptions } from '../../src/core/operations/convert/interfaces';
import { Limiter } from '../../src/core/limiter';
import { chromiumModule, createChromiumEngine } from '../../src/core/modules/chromium/index';
import type { LookupFn } from '../../src/core/net/public-address';
import { createToolRunner } from '../../src/core/run-tool';
import { ssrfHtml, testFolder } from '../fixtures/documents';

const A4: PrintOptions = {
  paperWidth: 210 / 25.4,
  paperHeight: 297 / 25.4,
  margins: { top: 0.4, right: 0.4, bottom: 0.4, left: 0.4 },
  landscape: false,
  printBackground: false,
  scale: 1,
};
const LETTER: PrintOptions = { ...A4, paperWidth: 8.5, paperHeight: 11 };
const c = { scratch: os.tmpdir() };

const ctx: EngineContext = {
  tools: createToolRunner({ limiter: new Limiter({ concurrency: 2, queueSize: 10 }), timeoutMs: 30_000 }),
  maxOutputBytes: 64 << 20,
};

// --- tools reading the PDFs back
const text = (pdf: string) => execFileSync('pdftotext', ['-layout', pdf, '-']).toString('utf8');
const info = (pdf: string) => execFileSync('pdfinfo', [pdf]).toString('utf8');
const pages = (pdf: string) => Number(/Pages:\s+(\d+)/.exec(info(pdf))?.[1]);
const pageSize = (pdf: string) => {
  const m = /Page size:\s+([\d.]+) x ([\d.]+) pts/.exec(info(pdf))!;
  // Chromium rounds the paper to whole device units: within a point of the request.
  return { w: Math.round(Number(m[1])), h: Math.round(Number(m[2])) };
};
const wordBox = (pdf: string, word: string) => {
  const m = new RegExp(`<word xMin="([\\d.]+)" yMin="([\\d.]+)" xMax="([\\d.]+)" yMax="([\\d.]+)">${word}</word>`).exec(
    execFileSync('pdftotext', ['-bbox', pdf, '-']).toString('utf8'),
  );
  if (!m) throw new Error(`${word} not in ${pdf}`);
  return { xMin: Number(m[1]), yMin: Number(m[2]), xMax: Number(m[3]), yMax: Number(m[4]) };
};
/** The RGB of the page's centre pixel, rendered at 10 dpi. */
const centrePixel = (pdf: string) => {
  const ppm = execFileSync('pdftoppm', ['-r', '10', '-f', '1', '-l', '1', pdf]);
  const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(ppm.subarray(0, 40).toString('latin1'))!;
  const [w, h] = [Number(header[1]), Number(header[2])];
  const at = header[0].length + (Math.floor(h / 2) * w + Math.floor(w / 2)) * 3;
  return [ppm[at], ppm[at + 1], ppm[at + 2]];
};
/** Chromium processes started by this test process (the browser; its helpers are its children). */
const browserPids = () => {
  try {
    return execFileSync('pgrep', ['-P', String(process.pid), '-x', 'chromium'])
      .toString()
      .trim()
      .split('\n')
      .filter(Boolean)
      .map(Number);
  } catch {
    return [];
  }
};
const pgrepF = (pattern: string) => {
  try {
    return execFileSync('pgrep', ['-f', pattern]).toString().trim().split('\n').filter(Boolean);
  } catch {
    return [];
  }
};

async function failure(p: Promise<unknown>): Promise<EngineError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(EngineError);
  return err as EngineError;
}

// --- local servers: one that records every hit (the SSRF target), one that serves test pages as "site.test"
const hits: string[] = [];
let hitServer: http.Server;
let pageServer: http.Server;
let hitPort = 0;
let pagePort = 0;
const pagesServed = new Map<string, string>();

const lookup: LookupFn = async (host) => {
  if (host === 'site.test' || host === 'evil.test') return [{ address: '127.0.0.1', family: 4 }];
  throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
};
const allowHost = (h: string) => h === 'site.test';

let dir: string;
let engine: Engine;
let slowEngine: Engine;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'chromium-test-'));
  hitServer = http.createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.writeHead(200, { 'content-type': 'image/png', 'access-control-allow-origin': '*' }).end('secret-data');
  });
  hitServer.on('upgrade', (req, socket) => {
    hits.push(`UPGRADE ${req.url}`);
    socket.destroy();
  });
  pageServer = http.createServer((req, res) => {
    const url = req.url ?? '/';
    if (url === '/redirect-loopback')
      return void res.writeHead(302, { location: `http://127.0.0.1:${hitPort}/secret` }).end();
    if (url === '/redirect-evil')
      return void res.writeHead(302, { location: `http://evil.test:${hitPort}/secret` }).end();
    if (url === '/redirect-ok') return void res.writeHead(302, { location: '/page/ok.html' }).end();
    if (url === '/missing') return void res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not here</h1>');
    if (url === '/hang') {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.write('<h1>Never finishes</h1>');
      return;
    }
    const body = pagesServed.get(url);
    if (body === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(body);
  });
  await new Promise<void>((r) => hitServer.listen(0, '127.0.0.1', r));
  await new Promise<void>((r) => pageServer.listen(0, '127.0.0.1', r));
  hitPort = (hitServer.address() as AddressInfo).port;
  pagePort = (pageServer.address() as AddressInfo).port;

  // Every address these pages try (loopback, and what stands for link-local cloud metadata) is the hit server.
  for (const kind of ['fetch', 'eventsource', 'websocket'] as const) {
    const name = `ssrf-${kind}-html`;
    const target = `127.0.0.1:${hitPort}`;
    const html = ssrfHtml(kind, kind === 'websocket' ? [target, target] : [target]);
    await mkdir(path.join(dir, name));
    await writeFile(path.join(dir, name, 'index.html'), html);
    pagesServed.set(`/page/${name}.html`, html);
  }
  pagesServed.set('/page/ok.html', '<!doctype html><title>ok</title><h1>Plain page rendered</h1>');
  pagesServed.set(
    '/page/control.html',
    `<!doctype html><h1>Control page</h1><img src="http://127.0.0.1:${hitPort}/control.png">`,
  );
  pagesServed.set(
    '/page/evil-sub.html',
    `<!doctype html><h1>Evil subresource</h1><img src="http://evil.test:${hitPort}/evil.png"><iframe src="http://169.254.169.254/latest/meta-data/"></iframe>`,
  );

  engine = createChromiumEngine(chromiumModule.configSchema.parse({}), ctx, { lookup, allowHost });
  slowEngine = createChromiumEngine(chromiumModule.configSchema.parse({ TIMEOUT_MS: '2500' }), ctx, {
    lookup,
    allowHost,
  });
});

afterAll(async () => {
  await engine?.close?.();
  await slowEngine?.close?.();
  hitServer?.close();
  pageServer?.closeAllConnections();
  pageServer?.close();
  await rm(dir, { recursive: true, force: true });
});

const out = (name: string) => path.join(dir, `${name}.pdf`);
async function html(name: string, body: string, print: PrintOptions = A4): Promise<string> {
  const d = path.join(dir, `h-${name}`);
  await import('node:fs/promises').then((fs) => fs.mkdir(d, { recursive: true }));
  await writeFile(path.join(d, 'index.html'), body);
  await engine.renderHtml!(path.join(d, 'index.html'), out(name), { ...print, baseDir: d }, c);
  return out(name);
}

describe('module', () => {
  it('reports its version cheaply and starts no browser until the first render', async () => {
    const health = await chromiumModule.healthCheck(chromiumModule.configSchema.parse({}), ctx);
    expect(health.ok).toBe(true);
    expect(health.version).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
    const before = browserPids();
    const idle = chromiumModule.create(chromiumModule.configSchema.parse({}), ctx);
    expect(idle.renderHtml).toBeTypeOf('function');
    expect(idle.renderUrl).toBeTypeOf('function');
    expect(browserPids()).toEqual(before);
    await idle.close!();
  });
});

describe('renderHtml', () => {
  it('leaves nothing of one document to the next (each render has a never-used context, spare or not)', async () => {
    const script = (mark: string) => `<!doctype html><html><body><p id="o"></p><script>
      const seen = [localStorage.getItem('k'), sessionStorage.getItem('k'), document.cookie || null].join('|');
      localStorage.setItem('k', '${mark}'); sessionStorage.setItem('k', '${mark}'); document.cookie = 'k=${mark}';
      document.getElementById('o').textContent = 'seen=' + seen + ' now=${mark}';
    </script></body></html>`;
    for (const mark of ['first', 'second', 'third']) {
      const pdf = await html(`isolation-${mark}`, script(mark));
      expect(text(pdf)).toContain(`seen=|| now=${mark}`);
    }
  });

  it('renders the feature-rich page with JavaScript and print media, nothing from outside', async () => {
    const d = path.join(dir, 'feature-rich-html');
    await cp(await testFolder('feature-rich-html'), d, { recursive: true });
    const t0 = performance.now();
    await engine.renderHtml!(path.join(d, 'index.html'), out('feature'), { ...A4, baseDir: d }, c);
    const featureMs = performance.now() - t0;
    const t = text(out('feature'));
    expect(t).toContain("Emulated media type is 'print'.");
    expect(t).toContain('JavaScript is enabled.');
    expect(t).not.toContain("Emulated media type is 'screen'.");
    expect(t).not.toContain('root:');
    // The missing and unreachable sheets and the uncaught error hold nothing up: measured against a bare page
    // rendered just after, so that a loaded machine slows both.
    const t1 = performance.now();
    await html('bare-reference', '<!doctype html><p>bare</p>');
    expect(featureMs).toBeLessThan(10 * (performance.now() - t1));
  });

  it('loads assets from its directory: the image is in the PDF', async () => {
    const d = await testFolder('html-with-asset');
    await engine.renderHtml!(path.join(d, 'index.html'), out('asset'), { ...A4, baseDir: d }, c);
    expect(text(out('asset'))).toContain('Asset test');
    const list = execFileSync('pdfimages', ['-list', out('asset')])
      .toString()
      .trim()
      .split('\n')
      .slice(2);
    expect(list).toHaveLength(1);
    expect(list[0]).toMatch(/^\s*1\s+0\s+image\s+1\s+1\s/);
  });

  it('never loads local files outside its directory', async () => {
    const pdf = await html(
      'passwd',
      `<!doctype html><p>Top</p>
       <iframe src="file:///etc/passwd"></iframe><iframe src="/etc/passwd"></iframe><iframe src="../../../../etc/passwd"></iframe>
       <object data="file:///etc/passwd" type="text/plain"></object>
       <img src="file:///etc/passwd"><script>fetch('file:///etc/passwd').then(r => r.text()).then(t => document.body.append(t)).catch(() => {})</script>
       <iframe src="http://127.0.0.1:${hitPort}/iframe"></iframe><img src="https://127.0.0.1:${hitPort}/img.png">
       <link rel="stylesheet" href="http://127.0.0.1:${hitPort}/style.css">`,
    );
    const t = text(pdf);
    expect(t).toContain('Top');
    expect(t).not.toMatch(/root:|daemon:|nologin/);
    expect(hits).toEqual([]);
  });

  it.each(['ssrf-fetch-html', 'ssrf-eventsource-html', 'ssrf-websocket-html'])('%s reaches nothing', async (name) => {
    const d = path.join(dir, name);
    await engine.renderHtml!(path.join(d, 'index.html'), out(name), { ...A4, baseDir: d }, c);
    expect(text(out(name))).toMatch(/SSRF/);
    await new Promise((r) => setTimeout(r, 200));
    expect(hits).toEqual([]);
  });

  it('renders Markdown through the builder: 3 pages, and the table', async () => {
    const d3 = await testFolder('pages-3-markdown');
    const scratch = await mkdtemp(path.join(dir, 'md-'));
    await cp(d3, scratch, { recursive: true });
    const built = await buildMarkdownHtml(path.join(scratch, 'index.html'), scratch);
    await engine.renderHtml!(built, out('md3'), { ...A4, baseDir: scratch }, c);
    expect(pages(out('md3'))).toBe(3);
    const t = text(out('md3'));
    for (const n of [1, 2, 3]) expect(t).toContain(`Page ${n}`);

    const rich = await mkdtemp(path.join(dir, 'mdr-'));
    await cp(await testFolder('feature-rich-markdown'), rich, { recursive: true });
    await engine.renderHtml!(
      await buildMarkdownHtml(path.join(rich, 'index.html'), rich),
      out('mdrich'),
      { ...A4, baseDir: rich },
      c,
    );
    const r = text(out('mdrich'));
    expect(r).toContain('A table written in Markdown');
    expect(r).toMatch(/row 2\s+centred\s+\$12/);
    expect(r).toContain('JavaScript is enabled.');
  });

  it('renders plain text, wrapped and in UTF-8', async () => {
    const f = path.join(dir, 'plain.txt');
    await writeFile(f, `Grüße aus Köln ✓\n${'long '.repeat(60)}END\n`);
    const built = await buildTextHtml(f, dir);
    await engine.renderHtml!(built, out('text'), { ...A4, baseDir: dir }, c);
    const t = text(out('text'));
    expect(t).toContain('Grüße aus Köln ✓');
    expect(t).toContain('END');
  });
});

describe('print options', () => {
  const page =
    '<!doctype html><style>html,body{margin:0}</style><p style="margin:0;font:20px monospace">MARKWORD here</p>';

  it('honours the paper size and orientation', async () => {
    const near = (got: { w: number; h: number }, w: number, h: number) => {
      expect(Math.abs(got.w - w)).toBeLessThanOrEqual(1);
      expect(Math.abs(got.h - h)).toBeLessThanOrEqual(1);
    };
    near(pageSize(await html('a4', page, A4)), 595, 842);
    expect(pageSize(await html('letter', page, LETTER))).toEqual({ w: 612, h: 792 });
    const d = await testFolder('wide-table-html');
    await engine.renderHtml!(path.join(d, 'index.html'), out('wide-l'), { ...A4, landscape: true, baseDir: d }, c);
    await engine.renderHtml!(path.join(d, 'index.html'), out('wide-p'), { ...A4, baseDir: d }, c);
    near(pageSize(out('wide-l')), 842, 595);
    near(pageSize(out('wide-p')), 595, 842);
    expect(text(out('wide-l'))).toContain('Column 12');
  });

  it('honours margins and scale', async () => {
    const narrow = wordBox(
      await html('m1', page, { ...A4, margins: { top: 0.5, right: 0.5, bottom: 0.5, left: 0.5 } }),
      'MARKWORD',
    );
    const wide = wordBox(
      await html('m2', page, { ...A4, margins: { top: 2, right: 0.5, bottom: 0.5, left: 2 } }),
      'MARKWORD',
    );
    expect(narrow.xMin).toBeCloseTo(36, -0.5);
    expect(wide.xMin).toBeCloseTo(144, -0.5);
    expect(wide.yMin - narrow.yMin).toBeCloseTo(108, -0.5);
    const half = wordBox(await html('s', page, { ...A4, scale: 0.5 }), 'MARKWORD');
    const full = wordBox(await html('s1', page, A4), 'MARKWORD');
    expect((half.xMax - half.xMin) / (full.xMax - full.xMin)).toBeCloseTo(0.5, 1);
  });

  it('prints backgrounds only when asked', async () => {
    const red = '<!doctype html><style>html,body{background:#f00;height:100%;margin:0}</style><p>x</p>';
    expect(centrePixel(await html('bg1', red, { ...A4, printBackground: true }))).toEqual([255, 0, 0]);
    expect(centrePixel(await html('bg0', red, { ...A4, printBackground: false }))).toEqual([255, 255, 255]);
  });

  it('refuses print options that leave no page', async () => {
    const e = await failure(html('bad', page, { ...A4, margins: { top: 0, right: 5, bottom: 0, left: 5 } }));
    expect(e.code).toBe('INVALID_INPUT');
  });
});

describe('renderUrl', () => {
  const site = (p: string) => `http://site.test:${pagePort}${p}`;
  const opts = { ...A4, allowPrivate: false };

  it('renders a page of an allowed host', async () => {
    await engine.renderUrl!(site('/redirect-ok'), out('url-ok'), opts, c);
    expect(text(out('url-ok'))).toContain('Plain page rendered');
  });

  it('the control: with allowPrivate the test page does reach the hit server', async () => {
    await engine.renderUrl!(site('/page/control.html'), out('url-control'), { ...A4, allowPrivate: true }, c);
    expect(hits).toContain('GET /control.png');
    hits.length = 0;
  });

  it.each(['ssrf-fetch-html', 'ssrf-eventsource-html', 'ssrf-websocket-html', 'control'])(
    '%s: subresources to private addresses are blocked',
    async (name) => {
      await engine.renderUrl!(site(`/page/${name}.html`), out(`url-${name}`), opts, c);
      expect(text(out(`url-${name}`))).toMatch(/SSRF|Control page/);
      await new Promise((r) => setTimeout(r, 200));
      expect(hits).toEqual([]);
    },
  );

  it('blocks a subresource host that resolves to loopback and the metadata address', async () => {
    await engine.renderUrl!(site('/page/evil-sub.html'), out('url-evil-sub'), opts, c);
    expect(text(out('url-evil-sub'))).toContain('Evil subresource');
    expect(hits).toEqual([]);
  });

  it.each([
    ['http://127.0.0.1:PORT/', '127.0.0.1'],
    ['http://evil.test:PORT/', 'evil.test'],
    ['http://[::1]:PORT/', '::1'],
    ['http://169.254.169.254/latest/meta-data/', '169.254.169.254'],
    ['http://0x7f000001:PORT/', '127.0.0.1'],
  ])('refuses %s at the top level', async (url, host) => {
    const e = await failure(engine.renderUrl!(url.replace('PORT', String(hitPort)), out('refused'), opts, c));
    expect(e.code).toBe('URL_NOT_ALLOWED');
    expect(e.message).toContain(host);
    expect(hits).toEqual([]);
  });

  it.each(['/redirect-loopback', '/redirect-evil'])(
    'refuses a redirect from an allowed page to a private address (%s)',
    async (p) => {
      const e = await failure(engine.renderUrl!(site(p), out('redir'), opts, c));
      expect(e.code).toBe('URL_NOT_ALLOWED');
      expect(e.message).toMatch(/127\.0\.0\.1|evil\.test/);
      expect(hits).toEqual([]);
    },
  );

  it.each([
    ['http://user:pw@site.test/', 'URL_NOT_ALLOWED'],
    ['file:///etc/passwd', 'URL_NOT_ALLOWED'],
    ['ftp://site.test/x', 'URL_NOT_ALLOWED'],
    ['javascript:alert(1)', 'URL_NOT_ALLOWED'],
    ['not a url', 'INVALID_INPUT'],
  ])('refuses %s before starting anything', async (url, code) => {
    expect((await failure(engine.renderUrl!(url, out('bad-url'), opts, c))).code).toBe(code);
  });

  it('answers INVALID_DOCUMENT for unresolvable hosts and error statuses, naming them', async () => {
    const dns = await failure(engine.renderUrl!('http://nowhere.test/', out('dns'), opts, c));
    expect(dns.code).toBe('INVALID_DOCUMENT');
    expect(dns.message).toContain('nowhere.test');
    const status = await failure(engine.renderUrl!(site('/missing'), out('404'), opts, c));
    expect(status.code).toBe('INVALID_DOCUMENT');
    expect(status.message).toContain('404');
  });
});

describe('lifecycle', () => {
  it('times out a page that never finishes loading, and an endless script; the next render works', async () => {
    // Each stopped by the engine's own deadline (TIMEOUT_MS 2.5 s), named in the error: neither ever ends by itself.
    expect(
      await failure(
        slowEngine.renderUrl!(`http://site.test:${pagePort}/hang`, out('hang'), { ...A4, allowPrivate: false }, c),
      ),
    ).toMatchObject({ code: 'TIMEOUT', message: expect.stringMatching(/took longer than 2.5 s/) });
    const d = path.join(dir, 'loop');
    await import('node:fs/promises').then((fs) => fs.mkdir(d, { recursive: true }));
    await writeFile(path.join(d, 'index.html'), '<p>loop</p><script>for(;;){}</script>');
    expect(
      await failure(slowEngine.renderHtml!(path.join(d, 'index.html'), out('loop'), { ...A4, baseDir: d }, c)),
    ).toMatchObject({ code: 'TIMEOUT', message: expect.stringMatching(/took longer than 2.5 s/) });
    const asset = await testFolder('html-with-asset');
    await slowEngine.renderHtml!(path.join(asset, 'index.html'), out('after-timeout'), { ...A4, baseDir: asset }, c);
    expect(text(out('after-timeout'))).toContain('Asset test');
  });

  it('stops when the request is cancelled', async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 500);
    const e = await failure(
      engine.renderUrl!(
        `http://site.test:${pagePort}/hang`,
        out('abort'),
        { ...A4, allowPrivate: false },
        { ...c, signal: ac.signal },
      ),
    );
    expect(e.code).toBe('ABORTED');
  });

  it('relaunches the browser after it is killed', async () => {
    const asset = await testFolder('html-with-asset');
    await engine.renderHtml!(path.join(asset, 'index.html'), out('before-kill'), { ...A4, baseDir: asset }, c);
    const [pid] = browserPids();
    expect(pid).toBeGreaterThan(0);
    process.kill(pid!, 'SIGKILL');
    await new Promise((r) => setTimeout(r, 300));
    await engine.renderHtml!(path.join(asset, 'index.html'), out('after-kill'), { ...A4, baseDir: asset }, c);
    expect(text(out('after-kill'))).toContain('Asset test');
    expect(browserPids()).not.toContain(pid);
  });

  it("runs with Playwright's feature switches and ours merged, and no omnibox WebUI renderer or network process", async () => {
    const e = chromiumModule.create(chromiumModule.configSchema.parse({}), ctx);
    const before = new Set(browserPids());
    try {
      const asset = await testFolder('html-with-asset');
      await e.renderHtml!(path.join(asset, 'index.html'), out('features'), { ...A4, baseDir: asset }, c);
      const [pid] = browserPids().filter((p) => !before.has(p));
      const cmdline = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0');
      const disabled = cmdline.filter((a) => a.startsWith('--disable-features='));
      const enabled = cmdline.filter((a) => a.startsWith('--enable-features='));
      expect(disabled).toHaveLength(1);
      expect(enabled).toHaveLength(1);
      // One of Playwright's (it keeps pages from being held back) beside ours.
      expect(disabled[0]!.split(/[=,]/)).toEqual(expect.arrayContaining(['PaintHolding', 'WebUIOmniboxPopup']));
      expect(enabled[0]!.split(/[=,]/)).toEqual(
        expect.arrayContaining(['CDPScreenshotNewSurface', 'NetworkServiceInProcess2']),
      );
      const profile = cmdline.find((a) => a.startsWith('--user-data-dir='))!.slice('--user-data-dir='.length);
      const helpers = await Promise.all(
        pgrepF(profile).map((p) => readFile(`/proc/${p}/cmdline`, 'utf8').catch(() => '')),
      );
      expect(helpers.filter((h) => h.includes('--type=gpu-process')).length).toBe(1); // the helpers are listed
      expect(helpers.filter((h) => h.includes('top-chrome-webui'))).toEqual([]);
      expect(helpers.filter((h) => h.includes('network.mojom.NetworkService'))).toEqual([]);
    } finally {
      await e.close!();
    }
  });

  it('closes the page opened ahead after SPARE_IDLE_MS unused (its renderer ends); the next render still works', async () => {
    const e = chromiumModule.create(chromiumModule.configSchema.parse({ SPARE_IDLE_MS: '1500' }), ctx);
    const before = new Set(browserPids());
    try {
      await e.warm!();
      const [pid] = browserPids().filter((p) => !before.has(p));
      const cmdline = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0');
      const profile = cmdline.find((a) => a.startsWith('--user-data-dir='))!.slice('--user-data-dir='.length);
      const renderers = async () =>
        (await Promise.all(pgrepF(profile).map((p) => readFile(`/proc/${p}/cmdline`, 'utf8').catch(() => '')))).filter(
          (h) => h.includes('--type=renderer'),
        ).length;
      // The spare's renderer comes up shortly after the warm-up.
      const deadline = Date.now() + 10_000;
      while ((await renderers()) === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(await renderers()).toBe(1);
      await new Promise((r) => setTimeout(r, 3500));
      expect(await renderers()).toBe(0);
      const asset = await testFolder('html-with-asset');
      const file = out('after-idle');
      await e.renderHtml!(path.join(asset, 'index.html'), file, { ...A4, baseDir: asset }, c);
      expect(text(file)).toContain('Asset test');
    } finally {
      await e.close!();
    }
  });

  it('close() leaves no browser process behind', async () => {
    const e = chromiumModule.create(chromiumModule.configSchema.parse({}), ctx);
    const before = new Set(browserPids());
    const asset = await testFolder('html-with-asset');
    await e.renderHtml!(path.join(asset, 'index.html'), out('close'), { ...A4, baseDir: asset }, c);
    const mine = browserPids().filter((p) => !before.has(p));
    expect(mine).toHaveLength(1);
    const cmdline = (await readFile(`/proc/${mine[0]}/cmdline`, 'utf8')).split('\0');
    const profile = cmdline.find((a) => a.startsWith('--user-data-dir='))!.slice('--user-data-dir='.length);
    expect(pgrepF(profile).length).toBeGreaterThan(1);
    await e.close!();
    expect(pgrepF(profile)).toEqual([]);
    expect(browserPids()).not.toContain(mine[0]);
  });
});
