// Issue 15: a 5-page 300-dpi scan to a searchable PDF through the API against `ocrmypdf` on the same file in the
// same run: ≤ 1/3 of its time, with the same word accuracy (share of the page's words found in each output's text
// layer, read back with pdftotext). The bench installs ocrmypdf (Debian's package) when it is missing and it may
// (root with apt-get); the product's set-up does not. Without it the API side is measured and the target is NOT MEASURED.
//   npm run bench -- searchable-ocr  BENCH_RUNS=1 BENCH_STRICT=1
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startServer } from './pdf.mjs';
import { median, ms, post, verdict } from './lib/measure.mjs';
import { a4Page, scannedPdf } from '../../apps/api/test/routes/ocr/ocr-images.ts';

const run = promisify(execFile);
const RUNS = Number(process.env.BENCH_RUNS ?? 1);
const PAGES = 5;
const work = mkdtempSync(path.join(os.tmpdir(), 'docflow-bench-searchable-'));
const page = await a4Page();
const scanPath = path.join(work, 'scan.pdf');
writeFileSync(scanPath, await scannedPdf(Array.from({ length: PAGES }, () => page)));
const scan = readFileSync(scanPath);
// The words a4Page() draws (40 lines of 11 words from this list, in order).
const vocab =
  'the quick brown fox jumps over the lazy dog while invoice numbers and dates are read by the scanner'.split(' ');
const truth = Array.from({ length: 40 * 11 }, (_, k) => vocab[(Math.floor(k / 11) * 7 + (k % 11)) % vocab.length]);

/** Share of the truth's words (with multiplicity, per page) found in the PDF's text layer. */
async function accuracy(pdf) {
  const { stdout } = await run('pdftotext', ['-enc', 'UTF-8', pdf, '-'], { maxBuffer: 64 << 20 });
  let found = 0;
  for (const text of stdout.split('\f').slice(0, PAGES)) {
    const got = new Map();
    for (const w of text.toLowerCase().match(/[a-z]+/g) ?? []) got.set(w, (got.get(w) ?? 0) + 1);
    for (const w of truth) {
      const left = got.get(w) ?? 0;
      if (left === 0) continue;
      got.set(w, left - 1);
      found++;
    }
  }
  return found / (truth.length * PAGES);
}

const server = await startServer();
const apiOut = path.join(work, 'api.pdf');
const api = async () => {
  const r = await post(server, '/ocr/searchable-pdf', [['file', 'scan.pdf', scan]]);
  writeFileSync(apiOut, r.body);
  return r.t;
};
await post(server, '/ocr/searchable-pdf', [['file', 'one.pdf', await scannedPdf([page])]]); // engines warm
const found = () => spawnSync('ocrmypdf', ['--version'], { stdio: 'ignore' }).status === 0;
if (!found() && process.getuid?.() === 0 && spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0) {
  console.log('  installing ocrmypdf for this bench (apt-get install ocrmypdf)');
  spawnSync('apt-get', ['install', '-y', '-q', '--no-install-recommends', 'ocrmypdf'], {
    stdio: 'ignore',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}
const hasOcrmypdf = found();
const nativeOut = path.join(work, 'ocrmypdf.pdf');
const apiTimes = [];
const nativeTimes = [];
for (let r = 0; r < RUNS; r++) {
  apiTimes.push(await api());
  if (hasOcrmypdf) {
    const t0 = process.hrtime.bigint();
    await run('ocrmypdf', ['--force-ocr', '--output-type', 'pdf', '-l', 'eng', scanPath, nativeOut]);
    nativeTimes.push(ms(t0));
  }
}
await server.stop();

// The floor under any searchable PDF made with tesseract: its own time on one page (rendered as the API renders it),
// spread over every core with nothing else to do. If that already misses the target, no pipeline around it can meet it.
// The same at half the resolution shows what reading a smaller image could win: layout shrinks, recognition hardly
// does (tesseract scales every text line to the same height before reading it).
const cores = os.availableParallelism();
function tesseractFloor() {
  const timed = (cmd, args) => {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(cmd, args, { stdio: 'ignore', env: { ...process.env, OMP_THREAD_LIMIT: '1' } });
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: exit ${r.status}`);
    return ms(t0);
  };
  const atDpi = (dpi) => {
    timed('pdftoppm', ['-r', String(dpi), '-gray', '-f', '1', '-l', '1', scanPath, path.join(work, `page${dpi}`)]);
    const pgm = path.join(work, `page${dpi}-1.pgm`);
    const full = [];
    const layout = [];
    for (let r = 0; r < Math.max(3, RUNS); r++) {
      full.push(timed('tesseract', [pgm, path.join(work, 'bare'), '-l', 'eng', 'tsv']));
      layout.push(timed('tesseract', [pgm, path.join(work, 'bare'), '-l', 'eng', '--psm', '2']));
    }
    return { page: median(full), layout: median(layout), floor: (PAGES * median(full)) / cores };
  };
  return { full: atDpi(300), half: atDpi(150) };
}
const apiAcc = await accuracy(apiOut);
console.log(`Searchable PDF, ${PAGES}-page 300-dpi scan (${RUNS} interleaved runs, medians, ${cores} cores)`);
let ok = true;
if (hasOcrmypdf) {
  const nativeAcc = await accuracy(nativeOut);
  const native = median(nativeTimes);
  const ratio = median(apiTimes) / native;
  ok = ratio <= 1 / 3 && apiAcc >= nativeAcc;
  console.log(
    `  API ${median(apiTimes).toFixed(0)} ms, words ${(apiAcc * 100).toFixed(1)} %   ocrmypdf ${native.toFixed(0)} ms, words ${(nativeAcc * 100).toFixed(1)} %   ratio ${ratio.toFixed(2)}×   target ≤ 0.33× at the same accuracy ${verdict(ok)}`,
  );
  const { full, half } = tesseractFloor();
  console.log(
    `  floor: bare tesseract ${full.page.toFixed(0)} ms a page (${full.layout.toFixed(0)} ms of it layout); ${PAGES} pages on ${cores} cores, perfectly shared and nothing else, ≥ ${full.floor.toFixed(0)} ms = ${(full.floor / native).toFixed(2)}× ocrmypdf`,
  );
  console.log(
    `         the same at 150 dpi: ${half.page.toFixed(0)} ms a page (${half.layout.toFixed(0)} ms layout), ≥ ${half.floor.toFixed(0)} ms = ${(half.floor / native).toFixed(2)}× ocrmypdf`,
  );
} else {
  console.log(
    `  API ${median(apiTimes).toFixed(0)} ms, words ${(apiAcc * 100).toFixed(1)} %   ocrmypdf not installed (apt-get install ocrmypdf)   target ≤ 0.33× NOT MEASURED`,
  );
}
rmSync(work, { recursive: true, force: true });
process.exit(process.env.BENCH_STRICT === '1' && !ok ? 1 : 0);
