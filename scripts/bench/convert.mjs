// Conversions through the whole API path (HTTP on 127.0.0.1, API-key guard, upload, detection, engine, answer)
// against the native tools started cold on the same files in the same run, as a user would run them:
// DOCX/XLSX/PPTX → PDF against `soffice --headless --convert-to pdf`, HTML → PDF against
// `chromium --headless --print-to-pdf`. Prints medians and ratios (below 1: the API is faster).
//   node --import tsx scripts/bench/convert.mjs      (or `npm run bench -- convert`)
//   BENCH_RUNS=5 BENCH_STRICT=1 node --import tsx scripts/bench/convert.mjs
/* global FormData, Blob, fetch */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from './pdf.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
// The office files the tests use, made by the project (apps/api/test/fixtures/documents/make.mjs).
const documents = path.resolve(here, '../../apps/api/test/fixtures/documents');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const work = mkdtempSync(path.join(os.tmpdir(), 'docflow-bench-convert-'));

// A 5-page DOCX (the test documents are 1-3 pages): LibreOffice writes it from an HTML source once.
const html = `<!doctype html><html><body>${Array.from({ length: 5 }, (_, p) => `<h1>Chapter ${p + 1}</h1>${'<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. </p>'.repeat(12)}<p style="page-break-after: always"></p>`).join('')}</body></html>`;
writeFileSync(path.join(work, 'doc.html'), html);
const profile = path.join(work, 'lo-profile');
const soffice = (file, outDir) =>
  execFileSync(
    'soffice',
    [`-env:UserInstallation=file://${profile}`, '--headless', '--convert-to', 'pdf', '--outdir', outDir, file],
    { stdio: 'ignore' },
  );
execFileSync(
  'soffice',
  [
    `-env:UserInstallation=file://${profile}`,
    '--headless',
    '--convert-to',
    'docx:MS Word 2007 XML',
    '--outdir',
    work,
    path.join(work, 'doc.html'),
  ],
  { stdio: 'ignore' },
);
const docx = path.join(work, 'doc.docx');
copyFileSync(path.join(documents, 'wide-sheet.xlsx'), path.join(work, 'sheet.xlsx'));
const page = path.join(work, 'page.html');
writeFileSync(
  page,
  `<!doctype html><html><body><h1>Invoice</h1><table>${'<tr><td>Item</td><td>12.00</td></tr>'.repeat(40)}</table></body></html>`,
);

const server = await startServer();
const base = `http://127.0.0.1:${server.port}/api/v1`;

async function api(route, files, fields = {}) {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, String(v));
  for (const [field, name, buf] of files) form.append(field, new Blob([buf]), name);
  const t0 = process.hrtime.bigint();
  const res = await fetch(`${base}${route}`, { method: 'POST', body: form, headers: { 'x-api-key': server.key } });
  const body = Buffer.from(await res.arrayBuffer());
  const t = ms(t0);
  if (res.status !== 200) throw new Error(`${route}: HTTP ${res.status} ${body.toString().slice(0, 300)}`);
  if (!body.subarray(0, 5).equals(Buffer.from('%PDF-'))) throw new Error(`${route}: not a PDF`);
  return t;
}
const tool = (fn) => {
  const t0 = process.hrtime.bigint();
  fn();
  return ms(t0);
};
const chromium = (file, outFile) =>
  execFileSync(
    '/usr/bin/chromium',
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      `--user-data-dir=${mkdtempSync(path.join(work, 'chr-'))}`,
      '--no-pdf-header-footer',
      `--print-to-pdf=${outFile}`,
      `file://${file}`,
    ],
    { stdio: 'ignore' },
  );

/** @type {{ name: string; api: () => Promise<number>; native: [string, () => number]; target?: number }[]} */
const cases = [
  {
    name: 'DOCX → PDF (5 pages)',
    api: () => api('/conversion/word-to-pdf', [['file', 'doc.docx', readFileSync(docx)]]),
    native: ['soffice --convert-to (cold)', () => tool(() => soffice(docx, path.join(work, 'o1')))],
    target: 1,
  },
  {
    name: 'XLSX → PDF',
    api: () => api('/conversion/excel-to-pdf', [['file', 'sheet.xlsx', readFileSync(path.join(work, 'sheet.xlsx'))]]),
    native: [
      'soffice --convert-to (cold)',
      () => tool(() => soffice(path.join(work, 'sheet.xlsx'), path.join(work, 'o2'))),
    ],
  },
  {
    name: 'PPSX → PDF',
    api: () =>
      api('/conversion/powerpoint-to-pdf', [
        ['file', 'slideshow.ppsx', readFileSync(path.join(documents, 'slideshow.ppsx'))],
      ]),
    native: [
      'soffice --convert-to (cold)',
      () => tool(() => soffice(path.join(documents, 'slideshow.ppsx'), path.join(work, 'o3'))),
    ],
  },
  {
    name: 'HTML → PDF',
    api: () => api('/conversion/html-to-pdf', [['files', 'index.html', readFileSync(page)]]),
    native: ['chromium --print-to-pdf (cold)', () => tool(() => chromium(page, path.join(work, 'c.pdf')))],
  },
];

// Warm-up: the first API call starts the pooled LibreOffice and the browser (what a running server already has).
for (const c of cases) {
  await c.api();
  c.native[1]();
}
console.log(
  `Conversions through the API vs the native tools started cold (${RUNS} interleaved runs, medians, ${os.availableParallelism()} cores)`,
);
let missed = 0;
for (const c of cases) {
  const a = [];
  const n = [];
  for (let r = 0; r < RUNS; r++) {
    a.push(await c.api());
    n.push(c.native[1]());
  }
  const ratio = median(a) / median(n);
  const verdict = c.target ? (ratio <= c.target ? `target ≤ ${c.target}× MET` : `target ≤ ${c.target}× MISSED`) : '';
  if (c.target && ratio > c.target) missed++;
  console.log(
    `  ${c.name.padEnd(22)} API ${median(a).toFixed(0).padStart(5)} ms   ${c.native[0]} ${median(n).toFixed(0)} ms   ratio ${ratio.toFixed(2)}× ${verdict}`,
  );
}
await server.stop();
rmSync(work, { recursive: true, force: true });
process.exit(process.env.BENCH_STRICT === '1' && missed ? 1 : 0);
