// POST /pipeline against the same stages as separate calls, through the whole API path: a 5-page DOCX → PDF →
// watermark → page numbers → protect as one call (one upload, one download, intermediates kept on the node) vs four
// calls (each answer downloaded and uploaded again). Both answers are checked to be encrypted PDFs.
//   npm run bench -- pipeline        BENCH_RUNS=9 BENCH_WARMUP=5
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer } from './pdf.mjs';
import { fivePageDocx, median, percentile, post } from './lib/measure.mjs';

const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const work = mkdtempSync(path.join(os.tmpdir(), 'docflow-bench-pipeline-'));
const docx = readFileSync(fivePageDocx(work));

const stages = [
  { op: '/conversion/word-to-pdf' },
  { op: '/pdf/watermark', text: 'DRAFT' },
  { op: '/pdf/page-numbers' },
  { op: '/pdf/protect', userPassword: 's3cret' },
];

const isEncryptedPdf = (body) =>
  body.subarray(0, 5).equals(Buffer.from('%PDF-')) && body.includes(Buffer.from('/Encrypt'));

const server = await startServer();
const pipeline = async () => {
  const r = await post(server, '/pipeline', [['file', 'doc.docx', docx]], { stages: JSON.stringify(stages) });
  if (!isEncryptedPdf(r.body)) throw new Error('pipeline: not an encrypted PDF');
  return r.t;
};
const separate = async () => {
  let t = 0;
  let file = docx;
  let name = 'doc.docx';
  for (const { op, ...fields } of stages) {
    const r = await post(server, op, [['file', name, file]], fields);
    t += r.t;
    file = r.body;
    name = 'doc.pdf';
  }
  if (!isEncryptedPdf(file)) throw new Error('separate calls: not an encrypted PDF');
  return t;
};
// Warm-up: every pooled LibreOffice and the PDF tools, as a running server has them (a pool member's first document
// takes over a second).
for (let i = 0; i < Number(process.env.BENCH_WARMUP ?? 5); i++) {
  await pipeline();
  await separate();
}
const one = [];
const four = [];
// Interleaved, so both see the same machine load.
for (let i = 0; i < RUNS; i++) {
  one.push(await pipeline());
  four.push(await separate());
}
await server.stop();
rmSync(work, { recursive: true, force: true });

const p50one = median(one);
const p50four = median(four);
console.log(
  `DOCX (5 pages) → PDF → watermark → page numbers → protect (${RUNS} runs each), ${os.availableParallelism()} cores`,
);
console.log(
  `  POST /pipeline (1 transfer)   p50 ${p50one.toFixed(0)} ms (p90 ${percentile(one, 90).toFixed(0)} ms)\n` +
    `  4 separate calls (4 transfers) p50 ${p50four.toFixed(0)} ms (p90 ${percentile(four, 90).toFixed(0)} ms)\n` +
    `  ratio pipeline / separate ${(p50one / p50four).toFixed(3)}×`,
);
