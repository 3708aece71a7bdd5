// Issue 15: a 5-page 300-dpi scan to a searchable PDF through the API against `ocrmypdf` on the same file in the
// same run: ≤ 1/3 of its time, with the same word accuracy (share of the page's words found in each output's text
// layer, read back with pdftotext). The bench installs ocrmypdf (Debian's package) when it is missing and it may
// (root with apt-get); the product's set-up does not. Without it the API side is measured and the target is NOT MEASURED.
// Issue 32: the same on a dense page (12-pt prose, ~630 words: the synthetic page's 440 short, well spaced words
// flatter us), against the tesseract floor: bare tesseract's time on one page × the rounds 5 pages take on the cores
// (3 on 2 cores). Target: DocFlow within 1.1× of that floor. Each API run is set against the floor sampled right after
// it (the median of those ratios), since this shared host's speed drifts more than the gap measured.
//   npm run bench -- searchable-ocr  BENCH_RUNS=3 BENCH_STRICT=1   (BENCH_PAGES=dense or synthetic: one page only)
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { startServer } from './pdf.mjs';
import { median, ms, post, verdict } from './lib/measure.mjs';
import { a4Page, densePage, scannedPdf } from '../../apps/api/test/routes/ocr/ocr-images.ts';

const run = promisify(execFile);
const RUNS = Number(process.env.BENCH_RUNS ?? 1);
const PAGES = 5;
const cores = os.availableParallelism();
const work = mkdtempSync(path.join(os.tmpdir(), 'docflow-bench-searchable-'));

/** The two pages benched, each with the words it draws (in order). */
async function benchPages() {
  // a4Page(): 40 lines of 11 words from this list, in order.
  const vocab =
    'the quick brown fox jumps over the lazy dog while invoice numbers and dates are read by the scanner'.split(' ');
  const synthetic = {
    name: 'synthetic',
    what: '40 lines of 11 short words',
    image: await a4Page(),
    truth: Array.from({ length: 40 * 11 }, (_, k) => vocab[(Math.floor(k / 11) * 7 + (k % 11)) % vocab.length]),
  };
  const dense = await densePage();
  const words = dense.paragraphs.flat().join(' ').split(' ');
  const prose = { name: 'dense', what: `12-pt prose, ${words.length} words`, image: dense.image, truth: words };
  const only = process.env.BENCH_PAGES;
  return [synthetic, prose].filter((p) => !only || p.name === only);
}

/** Share of the truth's words (with multiplicity, per page) found in the PDF's text layer. */
async function accuracy(pdf, truth) {
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

/**
 * The floor under any searchable PDF made with tesseract: its own time on one page (rendered as the API renders it),
 * one page per core with nothing else to do, in whole rounds (5 pages on 2 cores: 3). The same at half the resolution
 * shows what reading a smaller image could win: layout shrinks, recognition hardly does.
 */
function tesseractFloor(scanPath, name) {
  const timed = (cmd, args) => {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(cmd, args, { stdio: 'ignore', env: { ...process.env, OMP_THREAD_LIMIT: '1' } });
    if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: exit ${r.status}`);
    return ms(t0);
  };
  const atDpi = (dpi) => {
    const base = path.join(work, `${name}-page${dpi}`);
    timed('pdftoppm', ['-r', String(dpi), '-gray', '-f', '1', '-l', '1', scanPath, base]);
    const pgm = `${base}-1.pgm`;
    const full = [];
    const layout = [];
    for (let r = 0; r < Math.max(3, RUNS); r++) {
      full.push(timed('tesseract', [pgm, path.join(work, 'bare'), '-l', 'eng', 'tsv']));
      layout.push(timed('tesseract', [pgm, path.join(work, 'bare'), '-l', 'eng', '--psm', '2']));
    }
    const rounds = Math.ceil(PAGES / cores);
    return { pgm, page: median(full), layout: median(layout), floor: rounds * median(full), rounds };
  };
  return { full: atDpi(300), half: atDpi(150) };
}

const bareTesseract = (pgm) =>
  run('tesseract', [pgm, '-', '-l', 'eng', 'tsv'], {
    env: { ...process.env, OMP_THREAD_LIMIT: '1' },
    maxBuffer: 64 << 20,
  });

/**
 * One sample of each floor, taken right after an API run so that both see the same machine (a shared host's speed
 * drifts by ±15 % within minutes, more than the gap measured): tesseract alone on the page, and `cores` of them at
 * once (they share the memory bus and caches, so each is slower than alone). The floors: `rounds` × alone; and with
 * the cores shared, the full rounds at the shared speed plus the odd last page alone.
 */
async function floorSample(pgm) {
  let t0 = process.hrtime.bigint();
  await bareTesseract(pgm);
  const alone = ms(t0);
  t0 = process.hrtime.bigint();
  await Promise.all(Array.from({ length: cores }, () => bareTesseract(pgm)));
  const together = ms(t0);
  const rounds = Math.ceil(PAGES / cores);
  const shared = Math.floor(PAGES / cores) * together + (PAGES % cores ? alone : 0);
  return { alone, together, floor: rounds * alone, shared };
}

const server = await startServer();
const found = () => spawnSync('ocrmypdf', ['--version'], { stdio: 'ignore' }).status === 0;
if (
  process.env.BENCH_INSTALL !== '0' &&
  !found() &&
  process.getuid?.() === 0 &&
  spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0
) {
  console.log('  installing ocrmypdf for this bench (apt-get install ocrmypdf; BENCH_INSTALL=0 to skip)');
  spawnSync('apt-get', ['install', '-y', '-q', '--no-install-recommends', 'ocrmypdf'], {
    stdio: 'ignore',
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}
const hasOcrmypdf = found();
let ok = true;
for (const bench of await benchPages()) {
  const scanPath = path.join(work, `${bench.name}.pdf`);
  writeFileSync(scanPath, await scannedPdf(Array.from({ length: PAGES }, () => bench.image)));
  const scan = readFileSync(scanPath);
  const apiOut = path.join(work, `${bench.name}-api.pdf`);
  const nativeOut = path.join(work, `${bench.name}-ocrmypdf.pdf`);
  await post(server, '/ocr/searchable-pdf', [['file', 'one.pdf', await scannedPdf([bench.image])]]); // engines warm
  const apiTimes = [];
  const nativeTimes = [];
  const floors = [];
  const pgm = path.join(work, `${bench.name}-floor`);
  spawnSync('pdftoppm', ['-r', '300', '-gray', '-f', '1', '-l', '1', scanPath, pgm]);
  for (let r = 0; r < RUNS; r++) {
    const res = await post(server, '/ocr/searchable-pdf', [['file', 'scan.pdf', scan]]);
    writeFileSync(apiOut, res.body);
    apiTimes.push(res.t);
    floors.push(await floorSample(`${pgm}-1.pgm`));
    if (hasOcrmypdf) {
      const t0 = process.hrtime.bigint();
      await run('ocrmypdf', [
        '--force-ocr',
        '--output-type',
        'pdf',
        '-j',
        String(cores),
        '-l',
        'eng',
        scanPath,
        nativeOut,
      ]);
      nativeTimes.push(ms(t0));
    }
  }
  const api = median(apiTimes);
  const apiAcc = await accuracy(apiOut, bench.truth);
  const { full, half } = tesseractFloor(scanPath, bench.name);
  // Each run against the floor sampled right after it, then the median of those ratios.
  const toFloor = median(apiTimes.map((t, r) => t / floors[r].floor));
  const toShared = median(apiTimes.map((t, r) => t / floors[r].shared));
  const floor = median(floors.map((f) => f.floor));
  console.log(
    `Searchable PDF, ${PAGES}-page 300-dpi scan of the ${bench.name} page (${bench.what}; ${RUNS} runs, medians, ${cores} cores)`,
  );
  console.log(
    `  API ${api.toFixed(0)} ms, words ${(apiAcc * 100).toFixed(1)} %   tesseract floor ${floor.toFixed(0)} ms (${median(floors.map((f) => f.alone)).toFixed(0)} ms a page, ${full.layout.toFixed(0)} ms of it layout, × ${full.rounds} rounds)   API ${toFloor.toFixed(2)}× the floor (each run against the floor sampled after it: ${apiTimes.map((t, r) => (t / floors[r].floor).toFixed(2)).join(', ')})`,
  );
  console.log(
    `  ${cores} tesseracts at once: ${median(floors.map((f) => f.together)).toFixed(0)} ms each, so a floor of ${median(floors.map((f) => f.shared)).toFixed(0)} ms with the cores shared   API ${toShared.toFixed(2)}× that floor`,
  );
  if (bench.name === 'dense') {
    const met = toFloor <= 1.1;
    ok &&= met;
    console.log(`  target ≤ 1.10× the floor ${verdict(met)}`);
  }
  if (hasOcrmypdf) {
    const nativeAcc = await accuracy(nativeOut, bench.truth);
    const native = median(nativeTimes);
    const ratio = api / native;
    const line = `  ocrmypdf -j ${cores} ${native.toFixed(0)} ms, words ${(nativeAcc * 100).toFixed(1)} %   API ${ratio.toFixed(2)}× ocrmypdf`;
    if (bench.name === 'synthetic') {
      const met = ratio <= 1 / 3 && apiAcc >= nativeAcc;
      ok &&= met;
      console.log(`${line}   target ≤ 0.33× at the same accuracy ${verdict(met)}`);
    } else console.log(`${line}   the floor is ${(floor / native).toFixed(2)}× ocrmypdf`);
  } else {
    console.log(
      `  ocrmypdf not installed (apt-get install ocrmypdf): no comparison${bench.name === 'synthetic' ? ', target ≤ 0.33× NOT MEASURED' : ''}`,
    );
  }
  console.log(
    `  at 150 dpi: ${half.page.toFixed(0)} ms a page (${half.layout.toFixed(0)} ms layout), floor ${half.floor.toFixed(0)} ms`,
  );
}
await server.stop();
rmSync(work, { recursive: true, force: true });
process.exit(process.env.BENCH_STRICT === '1' && !ok ? 1 : 0);
