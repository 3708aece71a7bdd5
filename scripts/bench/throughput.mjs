// Issue 15: conversion throughput as documents per minute with 2 in flight (5-page DOCX → PDF through the API),
// beside two cold `soffice --convert-to pdf` at a time (own profiles) on the same file in the same run. The issue
// sets no figure to reach: it asks for the number, so the line says REPORTED with the ratio to the native tool.
//   npm run bench -- throughput      BENCH_DOCS=20 BENCH_NATIVE_DOCS=4
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer } from './pdf.mjs';
import { fivePageDocx, ms, post, soffice } from './lib/measure.mjs';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const DOCS = Number(process.env.BENCH_DOCS ?? 20);
const NATIVE_DOCS = Number(process.env.BENCH_NATIVE_DOCS ?? 4);
const IN_FLIGHT = 2;
const work = mkdtempSync(path.join(os.tmpdir(), 'docflow-bench-throughput-'));
const docxPath = fivePageDocx(work);
const docx = readFileSync(docxPath);

/** Run `total` jobs, `IN_FLIGHT` at a time; answers documents per minute. */
async function perMinute(total, job) {
  let next = 0;
  const t0 = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: IN_FLIGHT }, async (_, lane) => {
      while (next < total) await job(next++, lane);
    }),
  );
  return (total / ms(t0)) * 60_000;
}

const server = await startServer();
const convert = () => post(server, '/conversion/word-to-pdf', [['file', 'doc.docx', docx]]);
await Promise.all([convert(), convert()]); // the pool warm, as on a running server
const api = await perMinute(DOCS, () => convert());
await server.stop();

const run = promisify(execFile);
// Both soffice profiles initialised first: the first start of a profile is slower than a user's usual start.
for (const lane of [0, 1]) soffice(docxPath, path.join(work, `o${lane}`), path.join(work, `p${lane}`));
const native = await perMinute(NATIVE_DOCS, (_, lane) =>
  run('soffice', [
    `-env:UserInstallation=file://${path.join(work, `p${lane}`)}`,
    '--headless',
    '--convert-to',
    'pdf',
    '--outdir',
    path.join(work, `o${lane}`),
    docxPath,
  ]),
);
rmSync(work, { recursive: true, force: true });
console.log(
  `Throughput, 5-page DOCX → PDF, ${IN_FLIGHT} in flight (${DOCS} API documents, ${NATIVE_DOCS} soffice), ${os.availableParallelism()} cores`,
);
console.log(
  `  API ${api.toFixed(0)} documents/min   soffice --convert-to pdf (cold) ${native.toFixed(0)} documents/min   ratio ${(api / native).toFixed(1)}× the native rate   no figure in issue 15: REPORTED`,
);
