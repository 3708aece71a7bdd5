// OCR through the whole API path against bare tesseract on the same images in the same run (one thread per
// process, as ENGINE-NOTES advises; tesseract's default threads are slower on 2 cores): one A4 page at 300 dpi
// (/ocr/extract vs `tesseract page.png -`), and a 2-page scanned PDF to a searchable PDF (/ocr/searchable-pdf vs the
// same pipeline by hand: pdftoppm, tesseract's own `pdf` output with pages in parallel, qpdf). Medians and ratios.
//   node --import tsx scripts/bench/ocr.mjs          (or `npm run bench -- ocr`)
//   BENCH_RUNS=5 node --import tsx scripts/bench/ocr.mjs
/* global FormData, Blob, fetch */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startServer } from './pdf.mjs';
import { a4Page, scannedPdf } from '../../apps/api/test/routes/ocr/ocr-images.ts';

const run = promisify(execFile);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const ms = (t0) => Number(process.hrtime.bigint() - t0) / 1e6;
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const work = mkdtempSync(path.join(os.tmpdir(), 'docflow-bench-ocr-'));

const page = await a4Page();
const pagePath = path.join(work, 'page.png');
writeFileSync(pagePath, page);
const scan = await scannedPdf([page, page]);
const scanPath = path.join(work, 'scan.pdf');
writeFileSync(scanPath, scan);

const server = await startServer();
const base = `http://127.0.0.1:${server.port}/api/v1`;
async function api(route, name, buf, check) {
  const form = new FormData();
  form.append('file', new Blob([buf]), name);
  const t0 = process.hrtime.bigint();
  const res = await fetch(`${base}${route}`, { method: 'POST', body: form, headers: { 'x-api-key': server.key } });
  const body = Buffer.from(await res.arrayBuffer());
  const t = ms(t0);
  if (res.status !== 200) throw new Error(`${route}: HTTP ${res.status} ${body.toString().slice(0, 300)}`);
  check(body);
  return t;
}
const env = { ...process.env, OMP_THREAD_LIMIT: '1' };
const tesseract = async (args) => {
  const t0 = process.hrtime.bigint();
  await run('tesseract', args, { env, maxBuffer: 64 << 20 });
  return ms(t0);
};

/** @type {{ name: string; api: () => Promise<number>; native: [string, () => Promise<number>] }[]} */
const cases = [
  {
    name: 'extract, A4 page 300 dpi',
    api: () =>
      api('/ocr/extract', 'page.png', page, (b) => {
        if (!JSON.parse(b.toString()).data.text.includes('quick brown fox')) throw new Error('OCR text not found');
      }),
    native: ['tesseract page.png -', () => tesseract([pagePath, '-'])],
  },
  {
    name: 'searchable PDF, 2 pages',
    api: () =>
      api('/ocr/searchable-pdf', 'scan.pdf', scan, (b) => {
        if (!b.subarray(0, 5).equals(Buffer.from('%PDF-'))) throw new Error('not a PDF');
      }),
    native: [
      'pdftoppm + tesseract pdf (pages in parallel) + qpdf',
      async () => {
        const t0 = process.hrtime.bigint();
        await run('pdftoppm', ['-r', '300', '-png', scanPath, path.join(work, 'p')]);
        await Promise.all(
          [1, 2].map((i) =>
            run('tesseract', [path.join(work, `p-${i}.png`), path.join(work, `out-${i}`), 'pdf'], { env }),
          ),
        );
        await run('qpdf', [
          '--empty',
          '--pages',
          path.join(work, 'out-1.pdf'),
          path.join(work, 'out-2.pdf'),
          '--',
          path.join(work, 'searchable.pdf'),
        ]);
        return ms(t0);
      },
    ],
  },
];

for (const c of cases) {
  await c.api();
  await c.native[1]();
}
console.log(
  `OCR through the API vs bare tesseract, OMP_THREAD_LIMIT=1 (${RUNS} interleaved runs, medians, ${os.availableParallelism()} cores)`,
);
for (const c of cases) {
  const a = [];
  const n = [];
  for (let r = 0; r < RUNS; r++) {
    a.push(await c.api());
    n.push(await c.native[1]());
  }
  const ratio = median(a) / median(n);
  console.log(
    `  ${c.name.padEnd(26)} API ${median(a).toFixed(0).padStart(5)} ms   ${c.native[0]} ${median(n).toFixed(0)} ms   ratio ${ratio.toFixed(2)}×`,
  );
}
await server.stop();
rmSync(work, { recursive: true, force: true });
