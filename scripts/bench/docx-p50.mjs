// Issue 15: a 5-page DOCX → PDF through the whole API path with the LibreOffice pool warm, p50 ≤ 60 ms; beside it
// `soffice --convert-to pdf` started cold on the same file in the same run (what a user without a server runs).
//   npm run bench -- docx-p50        BENCH_RUNS=15 BENCH_COLD_RUNS=3 BENCH_STRICT=1
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer } from './pdf.mjs';
import { fivePageDocx, median, ms, percentile, post, soffice, verdict } from './lib/measure.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const COLD_RUNS = Number(process.env.BENCH_COLD_RUNS ?? 3);
const TARGET_MS = 60;
const work = mkdtempSync(path.join(os.tmpdir(), 'docflow-bench-docx-'));
const docx = readFileSync(fivePageDocx(work));

const server = await startServer();
const convert = async () => {
  const r = await post(server, '/conversion/word-to-pdf', [['file', 'doc.docx', docx]]);
  if (!r.body.subarray(0, 5).equals(Buffer.from('%PDF-'))) throw new Error('word-to-pdf: not a PDF');
  return r.t;
};
// Warm-up: the first call waits for the pooled LibreOffice (what a running server already has).
for (let i = 0; i < 3; i++) await convert();
const api = [];
for (let i = 0; i < RUNS; i++) api.push(await convert());
const cold = [];
for (let i = 0; i < COLD_RUNS; i++) {
  const t0 = process.hrtime.bigint();
  soffice(path.join(work, 'doc.docx'), path.join(work, 'out'), path.join(work, 'lo-profile'));
  cold.push(ms(t0));
}
await server.stop();
rmSync(work, { recursive: true, force: true });

const p50 = median(api);
const ok = p50 <= TARGET_MS;
console.log(
  `DOCX (5 pages) → PDF, warm pool (${RUNS} runs) vs soffice cold (${COLD_RUNS} runs), ${os.availableParallelism()} cores`,
);
console.log(
  `  API p50 ${p50.toFixed(0)} ms (p90 ${percentile(api, 90).toFixed(0)} ms)   soffice --convert-to pdf (cold) ${median(cold).toFixed(0)} ms   ratio ${(p50 / median(cold)).toFixed(3)}×   target p50 ≤ ${TARGET_MS} ms ${verdict(ok)}`,
);
process.exit(process.env.BENCH_STRICT === '1' && !ok ? 1 : 0);
