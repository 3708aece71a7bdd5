// PDF operations through the whole API path (HTTP on 127.0.0.1, API-key guard, multipart upload, engines, answer)
// against the bare tools on the same files, in the same run: merge (pdfunite, qpdf), split (qpdf --split-pages),
// watermark (qpdf --overlay), protect (qpdf --encrypt), extract-text (pdftotext). Prints medians and ratios.
//   node --import tsx scripts/bench/pdf.mjs          (or through `npm run bench`)
//   BENCH_RUNS=9 BENCH_PAGES=200 BENCH_STRICT=1 node --import tsx scripts/bench/pdf.mjs   (BENCH_CASES=n: the first n cases)
// The server runs in its own process (as in production), started by this script with `--serve`.
/* global setTimeout, FormData, Blob, fetch */
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { benchKey } from './lib/measure.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');

/** Server mode: build the app on a fresh database, create a key with high limits, listen, print {port, key}. */
export async function serve() {
  const { register } = await import('tsx/esm/api');
  register();
  const api = (p) => import(pathToFileURL(path.join(root, 'apps/api/src', p)).href);
  const { loadConfig } = await api('config/env.ts');
  const { openDatabase } = await api('data/db.ts');
  const { migrate } = await api('data/migrate.ts');
  const { buildApp } = await api('app.ts');
  const { users } = await api('data/schema/index.ts');
  const { createApiKey } = await api('services/api-keys/index.ts');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'docflow-bench-'));
  // The engine settings of the environment (PDF_*_ENGINES, PROCESSING_*) apply, as they do to the server.
  const config = loadConfig({
    ...process.env,
    NODE_ENV: 'production',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    WEB_DIST: path.join(dataDir, 'none'),
    REDIS_URL: '', // limits in memory: the bench measures the engines
  });
  const database = await openDatabase({});
  await migrate(database);
  const app = await buildApp({ config, database, logger: false });
  await app.ready();
  // A Pro key whose request rates are raised (an admin custom key): at the Pro plan's 100/min the limiter, not
  // the processing, would be measured.
  const key = await benchKey(
    database,
    { users, createApiKey },
    {
      planName: 'pro',
      maxFileSize: 200 * 1_048_576,
      allowedEndpoints: ['conversion', 'pdf', 'ocr', 'qrcode', 'batch'],
    },
  );
  await app.listen({ port: 0, host: '127.0.0.1' });
  process.stdout.write(`${JSON.stringify({ port: app.server.address().port, key })}\n`);
  process.stdin.resume();
  process.stdin.on('end', async () => {
    await app.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  });
}

/** Start the server process; resolves to { port, key, stop }. */
export async function startServer(env = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(import.meta.url), '--serve'], {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const info = await new Promise((resolve, reject) => {
    let buf = '';
    child.stdout.on('data', (c) => {
      buf += c;
      const nl = buf.indexOf('\n');
      if (nl >= 0) resolve(JSON.parse(buf.slice(0, nl)));
    });
    child.on('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return {
    ...info,
    stop: () =>
      new Promise((resolve) => {
        child.on('exit', resolve);
        child.stdin.end();
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;

async function main() {
  const RUNS = Number(process.env.BENCH_RUNS ?? 9);
  const PAGES = Number(process.env.BENCH_PAGES ?? 200);
  const work = mkdtempSync(path.join(os.tmpdir(), 'docflow-bench-pdf-'));
  const { PDFDocument, StandardFonts, rgb } = await import('pdf-lib');

  async function generate(name, label) {
    const doc = await PDFDocument.create();
    const font = await doc.embedFont(StandardFonts.Helvetica);
    for (let i = 1; i <= PAGES; i++) {
      const p = doc.addPage([595, 842]);
      p.drawText(`${label} Page ${i}`, { x: 50, y: 780, size: 24, font });
      for (let l = 0; l < 30; l++)
        p.drawText(`Line ${l} of page ${i}: lorem ipsum dolor sit amet, consectetur adipiscing elit.`, {
          x: 50,
          y: 740 - l * 20,
          size: 11,
          font,
        });
    }
    const file = path.join(work, name);
    writeFileSync(file, await doc.save());
    return file;
  }
  const a = await generate('a.pdf', 'A');
  const b = await generate('b.pdf', 'B');
  // The stamp the bare qpdf --overlay run lays on every page (what the API builds per request).
  const stampDoc = await PDFDocument.create();
  const sf = await stampDoc.embedFont(StandardFonts.HelveticaBold);
  stampDoc
    .addPage([595, 842])
    .drawText('CONFIDENTIAL', { x: 120, y: 400, size: 48, font: sf, color: rgb(0.5, 0.5, 0.5), opacity: 0.3 });
  const stamp = path.join(work, 'stamp.pdf');
  writeFileSync(stamp, await stampDoc.save());

  const server = await startServer();
  const base = `http://127.0.0.1:${server.port}/api/v1`;
  const bytes = { a: readFileSync(a), b: readFileSync(b) };

  async function api(route, files, fields = {}) {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, String(v));
    for (const [field, name, buf] of files) form.append(field, new Blob([buf], { type: 'application/pdf' }), name);
    const t0 = process.hrtime.bigint();
    const res = await fetch(`${base}${route}`, { method: 'POST', body: form, headers: { 'x-api-key': server.key } });
    const body = Buffer.from(await res.arrayBuffer());
    const t = ms(t0);
    if (res.status !== 200) throw new Error(`${route}: HTTP ${res.status} ${body.toString().slice(0, 200)}`);
    return { t, body };
  }
  const tool = (cmd, args) => {
    const t0 = process.hrtime.bigint();
    execFileSync(cmd, args, { stdio: ['ignore', 'ignore', 'ignore'], maxBuffer: 256 * 1024 * 1024 });
    return ms(t0);
  };
  const out = (n) => path.join(work, n);

  const cases = [
    {
      name: `merge 2×${PAGES} pages`,
      api: () =>
        api('/pdf/merge', [
          ['files', 'a.pdf', bytes.a],
          ['files', 'b.pdf', bytes.b],
        ]),
      bare: {
        pdfunite: () => tool('pdfunite', [a, b, out('u.pdf')]),
        'qpdf --empty --pages': () => tool('qpdf', ['--empty', '--pages', a, b, '--', out('q.pdf')]),
      },
      target: 1.5,
    },
    {
      name: `split ${PAGES} pages every 50`,
      api: () => api('/pdf/split', [['file', 'a.pdf', bytes.a]], { mode: 'every', every: 50 }),
      bare: { 'qpdf --split-pages=50': () => tool('qpdf', ['--split-pages=50', a, out('s-%d.pdf')]) },
    },
    {
      name: `split ${PAGES} pages, each page`,
      api: () => api('/pdf/split', [['file', 'a.pdf', bytes.a]], { mode: 'each' }),
      bare: { 'qpdf --split-pages': () => tool('qpdf', ['--split-pages', a, out('e-%d.pdf')]) },
    },
    {
      name: `watermark ${PAGES} pages`,
      api: () =>
        api('/pdf/watermark', [['file', 'a.pdf', bytes.a]], { text: 'CONFIDENTIAL', position: 'center', rotation: 0 }),
      bare: { 'qpdf --overlay': () => tool('qpdf', [a, '--overlay', stamp, '--repeat=1', '--', out('w.pdf')]) },
    },
    {
      name: `protect ${PAGES} pages (AES-256)`,
      api: () => api('/pdf/protect', [['file', 'a.pdf', bytes.a]], { userPassword: 'u', ownerPassword: 'o' }),
      bare: { 'qpdf --encrypt': () => tool('qpdf', ['--encrypt', 'u', 'o', '256', '--', a, out('p.pdf')]) },
      target: 2,
    },
    {
      name: `extract-text ${PAGES} pages`,
      api: () => api('/pdf/extract-text', [['file', 'a.pdf', bytes.a]]),
      bare: { pdftotext: () => tool('pdftotext', ['-enc', 'UTF-8', a, out('t.txt')]) },
      target: 1.2,
    },
  ].slice(0, Number(process.env.BENCH_CASES ?? 99));

  // Warm-up: JIT, connections, page caches.
  for (const c of cases) {
    await c.api();
    for (const f of Object.values(c.bare)) f();
  }
  // Sanity: the merge answer is what it should be.
  const merged = (await cases[0]?.api())?.body;
  if (!merged) throw new Error('no merge case');
  writeFileSync(out('check.pdf'), merged);
  const pages = Number(execFileSync('qpdf', ['--show-npages', out('check.pdf')], { encoding: 'utf8' }));
  if (pages !== 2 * PAGES) throw new Error(`merge answered ${pages} pages`);

  console.log(
    `PDF operations through the API vs the bare tools (${RUNS} interleaved runs, medians, ${os.availableParallelism()} cores)`,
  );
  let missed = 0;
  for (const c of cases) {
    /** @type {number[]} */
    const apiTimes = [];
    /** @type {Record<string, number[]>} */
    const bareTimes = {};
    for (let r = 0; r < RUNS; r++) {
      apiTimes.push((await c.api()).t);
      for (const [k, f] of Object.entries(c.bare)) (bareTimes[k] ??= []).push(f());
    }
    const apiMs = median(apiTimes);
    const bare = Object.entries(c.bare).map(([k]) => [k, median(bareTimes[k])]);
    const fastest = Math.min(...bare.map(([, t]) => t));
    const ratio = apiMs / fastest;
    const verdict = c.target ? (ratio <= c.target ? `target ≤ ${c.target}× MET` : `target ≤ ${c.target}× MISSED`) : '';
    if (c.target && ratio > c.target) missed++;
    console.log(
      `  ${c.name.padEnd(30)} API ${apiMs.toFixed(0).padStart(5)} ms   ${bare.map(([k, t]) => `${k} ${t.toFixed(0)} ms`).join(', ')}   ratio ${ratio.toFixed(2)}× ${verdict}`,
    );
  }
  await server.stop();
  rmSync(work, { recursive: true, force: true });
  process.exit(process.env.BENCH_STRICT === '1' && missed ? 1 : 0);
}

if (process.argv.includes('--serve')) await serve();
else if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) await main();
