import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEngineConfig } from '../../src/config/engines';
import { createEngines } from '../../src/core/create-engines';
import type { Engines } from '../../src/core/engines';
import type { Engine, OpContext } from '../../src/core/interfaces';
import { printf2 } from '../../src/core/modules/pdf-scan/boxes';
import { Parser, PdfString, Real, Ref, type PdfValue } from '../../src/core/modules/pdf-scan/objects';
import { pdfScanModule } from '../../src/core/modules/pdf-scan/index';
import { popplerModule } from '../../src/core/modules/poppler/index';
import { preparePdf } from '../../src/core/operations/pdf/job';
import { testJob, workspacesDisposedAfterEach } from '../fixtures/engines';
import {
  boxesPdf,
  garbagePdf,
  generatedPdfs,
  hybridPdf,
  incrementalPdf,
  lyingCountPdf,
  nestedTreePdf,
  objectStreamBombPdf,
  PdfWriter,
  spreadPdf,
} from '../fixtures/pdf-structures';
import { extraCorpusFiles, pdfNames, testDocument } from '../fixtures/documents';
import {
  countBombPdf,
  cyclicTreePdf,
  emptyFile,
  encryptedPdf,
  fixturesDir,
  hugeTreePdf,
  numberedPdf,
  pageCount,
  pagesText,
  truncatedPdf,
} from '../fixtures/pdfs';

/** The in-process page counter and box reader, against qpdf and poppler on the same files. */

let engines: Engines;
/** The chain as it was before pdf-scan: what every refused file must still get. */
let toolsOnly: Engines;
let scan: Engine;
let poppler: Engine;
const ctx: OpContext = { scratch: mkdtempSync(path.join(os.tmpdir(), 'docflow-scan-')) };
const workspaces = workspacesDisposedAfterEach();

beforeAll(() => {
  engines = createEngines(loadEngineConfig({ PROCESSING_TIMEOUT_MS: '20000' }));
  toolsOnly = createEngines(
    loadEngineConfig({
      PROCESSING_TIMEOUT_MS: '20000',
      PDF_PAGE_COUNT_ENGINES: 'qpdf,poppler',
      PDF_PAGE_BOXES_ENGINES: 'poppler',
    }),
  );
  const engineCtx = { tools: engines.tools, maxOutputBytes: 64 * 1024 * 1024 };
  scan = pdfScanModule.create({}, engineCtx);
  poppler = popplerModule.create(popplerModule.configSchema.parse({}), engineCtx);
});
afterAll(async () => {
  await Promise.all([engines.close(), toolsOnly.close()]);
});

const count = (file: string, opts: { stopAfter?: number; password?: string } = {}) => scan.countPages!(file, opts, ctx);
const boxes = (file: string, pages?: number) => scan.pageBoxes!(file, { pages }, ctx);
const popplerBoxes = (file: string, pages?: number) => poppler.pageBoxes!(file, { pages }, ctx);
const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: { code?: string }) => e.code,
  );
/** The project's own PDFs, plus the real-world ones of TEST_CORPUS_DIR when it is set. */
const documentPdfs: Array<[string, string]> = await Promise.all(
  pdfNames.map(async (n) => [n, await testDocument(n)] as [string, string]),
);
const corpusPdfs: Array<[string, string]> = extraCorpusFiles('.pdf').map((f) => [path.basename(f), f]);

/** What a chain answers for a file: its value, or its error code. */
const outcome = (e: Engines, file: string, password?: string) =>
  e
    .run('countPages', (f) => f(file, { password }, ctx))
    .then(
      (r) => ({ value: r.value }),
      (err: { code: string }) => ({ code: err.code }),
    );

describe('countPages: the real number of pages, as qpdf counts them', () => {
  const countsAsQpdf = async (_name: string, file: string) => {
    expect(await count(file)).toEqual({ pages: pageCount(file), encrypted: false });
  };
  it.each(documentPdfs)('%s', countsAsQpdf);
  if (corpusPdfs.length) it.each(corpusPdfs)('TEST_CORPUS_DIR %s', countsAsQpdf);

  it.each([1, 7, 200])(
    '%i pages: pdf-lib (xref and object streams), qpdf classic tables, qpdf object streams',
    async (n) => {
      const files = await generatedPdfs(n);
      for (const file of Object.values(files)) {
        expect(pageCount(file)).toBe(n);
        expect(await count(file), file).toEqual({ pages: n, encrypted: false });
      }
    },
  );

  it('incremental updates: a classic section and an xref stream section (PNG predictor) chained by /Prev', async () => {
    const file = await incrementalPdf();
    expect(pageCount(file)).toBe(4);
    expect(await count(file)).toEqual({ pages: 4, encrypted: false });
  });

  it('a hybrid file: the pages sit in an object stream listed by the trailer /XRefStm', async () => {
    const file = await hybridPdf();
    expect(pageCount(file)).toBe(2);
    expect(await count(file)).toEqual({ pages: 2, encrypted: false });
  });

  it('a nested page tree (intermediate /Pages nodes on two levels)', async () => {
    const file = await nestedTreePdf();
    expect(pageCount(file)).toBe(12);
    expect(await count(file)).toEqual({ pages: 12, encrypted: false });
  });

  it('never trusts /Count: the real leaves, with the declared count when it lies', async () => {
    expect(await count(await countBombPdf())).toEqual({ pages: 1, encrypted: false, declaredPages: 1_000_000_000 });
    expect(await count(await lyingCountPdf(5, 2))).toEqual({ pages: 5, encrypted: false, declaredPages: 2 });
  });

  it('stopAfter: stops once past it, with atLeast; exact when the walk ended anyway', async () => {
    const file = await numberedPdf(50, 'Many');
    const early = await count(file, { stopAfter: 10 });
    expect(early.atLeast).toBe(true);
    expect(early.pages).toBeGreaterThan(10);
    expect(await count(file, { stopAfter: 49 })).toEqual({ pages: 50, encrypted: false });
    expect(await count(file, { stopAfter: 50 })).toEqual({ pages: 50, encrypted: false });
  });

  it('large files, read by blocks: pages at both ends of a 3 MB file, and 20 000 pages in nodes of 1000', async () => {
    const spread = await spreadPdf(3);
    expect(statSync(spread).size).toBeGreaterThan(3_000_000);
    expect(await count(spread)).toEqual({ pages: 2, encrypted: false });
    expect(await boxes(spread, 2)).toEqual(await popplerBoxes(spread, 2));
    const huge = await hugeTreePdf(20_000);
    expect(statSync(huge).size).toBeGreaterThan(1_048_576);
    expect(await count(huge)).toEqual({ pages: 20_000, encrypted: false });
    expect(await count(huge, { stopAfter: 500 })).toMatchObject({ atLeast: true });
    expect(await boxes(huge, 1500)).toEqual(await popplerBoxes(huge, 1500));
  });

  it('answers first in the default chain', async () => {
    const r = await engines.run('countPages', (f) => f(documentPdfs[0]![1], {}, ctx));
    expect(r.engine).toBe('pdf-scan');
    expect(engines.chain('countPages')).toEqual(['pdf-scan', 'qpdf', 'poppler']);
    expect(engines.chain('pageBoxes')).toEqual(['pdf-scan', 'poppler', 'pdf-lib']);
  });
});

describe('declines what it does not handle: UNSUPPORTED_OPERATION, and the tools answer as before', () => {
  const declined: Array<[string, () => Promise<string>]> = [
    ['encrypted (user password)', () => encryptedPdf('user')],
    ['encrypted (owner password only)', () => encryptedPdf('owner')],
    ['truncated (classic xref)', () => truncatedPdf('classic')],
    ['truncated (object streams)', () => truncatedPdf('objstm')],
    ['garbage after a PDF header', garbagePdf],
    ['cyclic page tree', cyclicTreePdf],
    ['zero bytes', emptyFile],
    ['object stream inflating to 200 MB', () => objectStreamBombPdf(200)],
  ];

  it.each(declined)('%s', async (_name, make) => {
    const file = await make();
    expect(await codeOf(count(file))).toBe('UNSUPPORTED_OPERATION');
    expect(await codeOf(boxes(file))).toBe('UNSUPPORTED_OPERATION');
    expect(await outcome(engines, file)).toEqual(await outcome(toolsOnly, file));
  });

  it('encrypted: qpdf checks the password through the chain', async () => {
    const file = await encryptedPdf('user');
    expect(await outcome(engines, file)).toEqual({ code: 'PASSWORD_REQUIRED' });
    expect(await outcome(engines, file, 'nope')).toEqual({ code: 'WRONG_PASSWORD' });
    expect(await outcome(engines, file, 'open-sesame')).toEqual({ value: { pages: 2, encrypted: true } });
  });

  it('the bomb is refused within its inflate cap, fast', async () => {
    const file = await objectStreamBombPdf(200);
    expect(await codeOf(count(file))).toBe('UNSUPPORTED_OPERATION');
    // Within the cap (32 MB): refusing 200 MB costs what reading a 30 MB stream costs, not near seven times that.
    // Measured against each other in the same moments, so a loaded machine slows both (best of three each).
    const small = await objectStreamBombPdf(30);
    const best = async (f: string) => {
      let min = Infinity;
      for (let i = 0; i < 3; i++) {
        const t = performance.now();
        await codeOf(count(f));
        min = Math.min(min, performance.now() - t);
      }
      return min;
    };
    const [bomb, reference] = [await best(file), await best(small)];
    expect(bomb).toBeLessThan(3 * reference);
    expect(await outcome(engines, file)).toEqual({ value: { pages: 1, encrypted: false } });
  });

  /** A one-file tree: catalog 1, root 2 with `kids`, pages from 3; the table written by `finish`. */
  function smallTree(
    name: string,
    kids: string,
    finish: (w: PdfWriter) => void = (w) => w.xrefTable([1, 2, 3], '<< /Size 4 /Root 1 0 R >>'),
  ) {
    const w = new PdfWriter();
    w.object(1, '<< /Type /Catalog /Pages 2 0 R >>');
    w.object(2, `<< /Type /Pages /Kids [${kids}] /Count 2 >>`);
    w.object(3, '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>');
    finish(w);
    const file = path.join(fixturesDir(), name);
    writeFileSync(file, w.bytes());
    return file;
  }

  it.each([
    ['a page listed twice', () => smallTree('shared-page.pdf', '3 0 R 3 0 R')],
    [
      'an xref offset pointing at another object',
      () => {
        const file = smallTree('misplaced.pdf', '3 0 R');
        const swapped = readFileSync(file, 'latin1').replace(
          /^(\d{10}) 00000 n \n(\d{10}) 00000 n \n/m,
          '$2 00000 n \n$1 00000 n \n',
        );
        writeFileSync(file, swapped, 'latin1');
        return file;
      },
    ],
    [
      'a /Prev chain looping on itself',
      () =>
        smallTree('prev-loop.pdf', '3 0 R', (w) =>
          w.xrefTable([1, 2, 3], `<< /Size 4 /Root 1 0 R /Prev ${w.position} >>`),
        ),
    ],
    [
      'a /Type /Page with /Kids',
      () =>
        smallTree('page-with-kids.pdf', '3 0 R', (w) => {
          w.object(3, '<< /Type /Page /Parent 2 0 R /Kids [] >>');
          w.xrefTable([1, 2, 3], '<< /Size 4 /Root 1 0 R >>');
        }),
    ],
  ])('%s', async (_name, make) => {
    const file = make();
    expect(await codeOf(count(file))).toBe('UNSUPPORTED_OPERATION');
    expect(await outcome(engines, file)).toEqual(await outcome(toolsOnly, file));
  });

  it('a /Rotate that is not a quarter turn is left to poppler', async () => {
    const w = new PdfWriter();
    w.object(1, '<< /Type /Catalog /Pages 2 0 R >>');
    w.object(2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>');
    w.object(3, '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Rotate 45 >>');
    w.xrefTable([1, 2, 3], '<< /Size 4 /Root 1 0 R >>');
    const file = path.join(fixturesDir(), 'rotate-45.pdf');
    writeFileSync(file, w.bytes());
    expect(await codeOf(boxes(file))).toBe('UNSUPPORTED_OPERATION');
    const r = await engines.run('pageBoxes', (f) => f(file, { pages: 1 }, ctx));
    expect(r.engine).toBe('poppler');
  });
});

describe('pageBoxes: what the poppler engine reports, number for number', () => {
  const boxesAsPoppler = async (_name: string, file: string) => {
    const n = pageCount(file);
    expect(await boxes(file, n)).toEqual(await popplerBoxes(file, n));
  };
  it.each(documentPdfs)('%s', boxesAsPoppler);
  if (corpusPdfs.length) it.each(corpusPdfs)('TEST_CORPUS_DIR %s', boxesAsPoppler);

  it('inherited /MediaBox, /CropBox and /Rotate (-90, 180, 450) down a nested tree', async () => {
    const file = await nestedTreePdf();
    const got = await boxes(file, 12);
    expect(got).toEqual(await popplerBoxes(file, 12));
    expect(new Set(got.map((b) => b.rotate))).toEqual(new Set([90, 180, 270]));
  });

  it('every box rule: CropBox within and beyond the MediaBox, TrimBox, reversed corners, ties at two decimals, Rotate -90 / 450 / -450 / 90.0', async () => {
    const file = await boxesPdf();
    const n = pageCount(file);
    expect(await boxes(file, n)).toEqual(await popplerBoxes(file, n));
  });

  it('rotated pdf-lib pages, incremental and hybrid files', async () => {
    for (const file of [await numberedPdf(3, 'Turned', { rotate: 270 }), await incrementalPdf(), await hybridPdf()]) {
      const n = pageCount(file);
      expect(await boxes(file, n), file).toEqual(await popplerBoxes(file, n));
    }
  });

  it('only the pages asked; none for 0; all when not given', async () => {
    const file = await nestedTreePdf();
    expect(await boxes(file, 5)).toEqual(await popplerBoxes(file, 5));
    expect(await boxes(file, 0)).toEqual([]);
    expect(await boxes(file)).toEqual(await popplerBoxes(file));
  });

  it('a /Count that disagrees with the tree is left to poppler', async () => {
    expect(await codeOf(boxes(await lyingCountPdf(5, 2), 5))).toBe('UNSUPPORTED_OPERATION');
  });
});

describe('object syntax', () => {
  const parse = (s: string): PdfValue => new Parser(Buffer.from(s, 'latin1'), 0, true).value();

  it('names with #xx escapes, numbers, booleans, null, references', () => {
    expect(parse('/A#20B#2fC')).toBe('A B/C');
    expect(parse('/Lone#')).toBe('Lone#');
    expect(parse('[12 -3 +4 true false null 5 0 R 6 7]')).toEqual([12, -3, 4, true, false, null, new Ref(5, 0), 6, 7]);
    expect(parse('-.5')).toEqual(new Real(-0.5));
    expect(parse('<< /K [1 2] /D << /E 1 0 R >> >>')).toEqual(
      new Map<string, PdfValue>([
        ['K', [1, 2]],
        ['D', new Map([['E', new Ref(1, 0)]])],
      ]),
    );
  });

  it('literal strings with nesting and escapes, hex strings', () => {
    const bytes = (v: PdfValue) => (v as PdfString).bytes.toString('latin1');
    expect(bytes(parse('(a (nested) \\(escaped\\) \\101\\n\\\\ line\\\ncontinued)'))).toBe(
      'a (nested) (escaped) A\n\\ linecontinued',
    );
    expect(bytes(parse('<48 65 6C6c 6>'))).toBe('Hell`');
  });

  it('comments, and a hostile depth refused rather than recursed into', () => {
    expect(parse('% a comment\n[1 % another\n2]')).toEqual([1, 2]);
    expect(() => parse('['.repeat(10_000))).toThrow(/nested too deeply/);
  });

  it("prints like C's %.2f, ties included", () => {
    expect([0.125, 0.375, 595.125, 841.875, -0.125, 0.015, 1.005, -0].map(printf2)).toEqual([
      '0.12',
      '0.38',
      '595.12',
      '841.88',
      '-0.12',
      '0.01',
      '1.00',
      '-0.00',
    ]);
  });
});

describe('preparePdf with the scan first', () => {
  const src = (p: string) => ({ path: p, filename: path.basename(p), size: statSync(p).size });
  async function job(maxPages: number | null) {
    const j = await testJob(engines, maxPages);
    workspaces.push(j.ws);
    return j.job;
  }

  it('a file over the plan is refused once the count passes the limit', async () => {
    const err = await preparePdf(await job(10), src(await numberedPdf(50, 'Many')), { label: '"many.pdf"' }).catch(
      (e) => e,
    );
    expect(err).toMatchObject({ code: 'PAGE_LIMIT_EXCEEDED', details: { maxPagesPerPdf: 10, atLeast: true } });
    expect(err.message).toBe('"many.pdf" has more than 10 pages; your plan allows at most 10 pages per PDF');
  });

  it('a /Count below the real pages: the rebuilt file holds every page', async () => {
    const input = await preparePdf(await job(null), src(await lyingCountPdf(5, 2)), { label: 'lying' });
    expect(input.pages).toBe(5);
    expect(pageCount(input.path)).toBe(5);
    expect(pagesText(input.path)).toHaveLength(5);
  });
});
