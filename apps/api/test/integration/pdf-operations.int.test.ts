import { copyFileSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as ops from '../../src/core/operations/pdf';
import type { Engines } from '../../src/core/engines';
import { testEngines, testJob, watchTools, workspacesDisposedAfterEach } from '../fixtures/engines';
import { testDocument } from '../fixtures/documents';
import {
  countBombPdf,
  cyclicTreePdf,
  emptyFile,
  encryptedPdf,
  formPdf,
  hugeTreePdf,
  notAPdf,
  numberedPdf,
  pageCount,
  pagesText,
  qpdfCheck,
  rotations,
  run,
  truncatedPdf,
} from '../fixtures/pdfs';

/** Real engines on real files: every result is read back with the bare tools. */

let engines: Engines;
const workspaces = workspacesDisposedAfterEach();
async function job(maxPages: number | null = null, e: Engines = engines) {
  const j = await testJob(e, maxPages);
  workspaces.push(j.ws);
  return j.job;
}
const src = (p: string, name = path.basename(p)) => ({ path: p, filename: name, size: statSync(p).size });
async function prepared(p: string, opts: { password?: string; maxPages?: number | null; e?: Engines } = {}) {
  const j = await job(opts.maxPages ?? null, opts.e);
  // Where an upload is: in the request's own workspace (its tools read nothing of another request's, this file's
  // earlier outputs included).
  const upload = j.ws.file(path.basename(p));
  copyFileSync(p, upload);
  return { j, input: await ops.preparePdf(j, src(upload), { label: path.basename(p), password: opts.password }) };
}
const engineErr = async (p: Promise<unknown>) =>
  p.then(
    () => {
      throw new Error('expected an error');
    },
    (e) => e as { code: string; message: string },
  );

beforeAll(() => {
  engines = testEngines();
});
afterAll(() => engines.close());

describe('merge', () => {
  it.each([['pdf-scan'], ['poppler'], ['qpdf'], ['pdf-lib']])(
    'with %s alone: pages in order, a clean file',
    async (engine) => {
      const e = testEngines({ PDF_MERGE_ENGINES: engine });
      const j = await job(null, e);
      const a = await ops.preparePdf(j, src(await numberedPdf(3, 'Alpha')), { label: 'a' });
      const b = await ops.preparePdf(j, src(await numberedPdf(2, 'Bravo')), { label: 'b' });
      const out = await ops.mergePdfs(j, [b, a]);
      expect(out.pages).toBe(5);
      expect(pageCount(out.path)).toBe(5);
      const text = pagesText(out.path);
      expect(text.map((t) => t.split('\n')[0])).toEqual([
        'Bravo Page 1',
        'Bravo Page 2',
        'Alpha Page 1',
        'Alpha Page 2',
        'Alpha Page 3',
      ]);
      // pdfunite writes a wrong trailer /Size; the engine patches it, so qpdf --check finds nothing to say.
      const check = qpdfCheck(out.path);
      expect(check.ok).toBe(true);
      expect(check.out).not.toMatch(/WARNING/);
    },
  );

  it('merges documents of different sizes and fonts', async () => {
    const j = await job();
    const inputs = await Promise.all(
      (['titled_alpha.pdf', 'pages_3.pdf', 'page_1.pdf'] as const).map(async (n) =>
        ops.preparePdf(j, src(await testDocument(n)), { label: n }),
      ),
    );
    const out = await ops.mergePdfs(j, inputs);
    expect(pageCount(out.path)).toBe(2 + 3 + 1);
    expect(pagesText(out.path)[2]).toContain('Page 1');
  });

  it('a count bomb merges as its one real page (pdfunite refuses it, qpdf takes over)', async () => {
    const j = await job();
    const bomb = await ops.preparePdf(j, src(await countBombPdf()), { label: 'bomb' });
    expect(bomb.pages).toBe(1);
    const other = await ops.preparePdf(j, src(await numberedPdf(2, 'Other')), { label: 'o' });
    const out = await ops.mergePdfs(j, [bomb, other]);
    expect(pageCount(out.path)).toBe(3);
    expect(pagesText(out.path)[0]).toContain('Count bomb');
  });

  it('holds the merged total to the plan limit', async () => {
    const j = await job(4);
    const a = await ops.preparePdf(j, src(await numberedPdf(3, 'Alpha')), { label: 'a' });
    const err = await engineErr(ops.mergePdfs(j, [a, a]));
    expect(err.code).toBe('PAGE_LIMIT_EXCEEDED');
  });
});

describe('split, extract, delete, reorder', () => {
  it('splits by ranges, every N and each page', async () => {
    const { j, input } = await prepared(await numberedPdf(7, 'Split'));
    const ranges = await ops.splitPdf(j, input, { mode: 'ranges', ranges: '1-3,5,6-' });
    expect(ranges.map((r) => pageCount(r.path))).toEqual([3, 1, 2]);
    expect(pagesText(ranges[1]!.path)[0]).toContain('Split Page 5');
    expect(ranges.map((r) => r.name)).toEqual(['pages-1-3', 'page-5', 'pages-6-7']);
    const every = await ops.splitPdf(j, input, { mode: 'every', every: 3 });
    expect(every.map((r) => pageCount(r.path))).toEqual([3, 3, 1]);
    expect(pagesText(every[2]!.path)[0]).toContain('Split Page 7');
    const each = await ops.splitPdf(j, input, { mode: 'each' });
    expect(each).toHaveLength(7);
    expect(pagesText(each[3]!.path)[0]).toContain('Split Page 4');
  });

  it('refuses bad ranges naming the field', async () => {
    const { j, input } = await prepared(await numberedPdf(4, 'Split'));
    for (const ranges of ['5-2', '0', 'abc', '9']) {
      const err = await engineErr(ops.splitPdf(j, input, { mode: 'ranges', ranges }));
      expect(err.code).toBe('INVALID_INPUT');
      expect(err.message).toMatch(/^ranges: /);
    }
  });

  it('extracts, deletes and reorders', async () => {
    const { j, input } = await prepared(await numberedPdf(5, 'Ops'));
    const firstLines = (p: string) => pagesText(p).map((t) => t.split('\n')[0]);
    expect(firstLines((await ops.extractPages(j, input, '4,2')).path)).toEqual(['Ops Page 4', 'Ops Page 2']);
    expect(firstLines((await ops.deletePages(j, input, '2-3')).path)).toEqual([
      'Ops Page 1',
      'Ops Page 4',
      'Ops Page 5',
    ]);
    expect(firstLines((await ops.reorderPages(j, input, 'reverse')).path)).toEqual([
      'Ops Page 5',
      'Ops Page 4',
      'Ops Page 3',
      'Ops Page 2',
      'Ops Page 1',
    ]);
    expect((await engineErr(ops.deletePages(j, input, '1-5'))).message).toMatch(/cannot delete every page/);
    expect((await engineErr(ops.reorderPages(j, input, '1,2'))).message).toMatch(/^order: /);
  });
});

describe('rotate', () => {
  it.each([['qpdf'], ['pdf-lib']])('with %s: the angles asked, on the pages asked', async (engine) => {
    const e = testEngines({ PDF_ROTATE_ENGINES: engine });
    const { j, input } = await prepared(await numberedPdf(4, 'Rot'), { e });
    const out = await ops.rotatePages(j, input, 90, '1,3');
    expect(rotations(out.path)).toEqual([90, 0, 90, 0]);
    const { j: j2, input: again } = await prepared(out.path, { e });
    const twice = await ops.rotatePages(j2, again, 270, '');
    expect(rotations(twice.path)).toEqual([0, 270, 0, 270]);
    const r180 = await ops.rotatePages(j, input, 180, '2');
    expect(rotations(r180.path)).toEqual([0, 180, 0, 0]);
  });
});

describe('watermark and page numbers', () => {
  const spec = (text: string, extra: Partial<Parameters<typeof ops.watermarkPdf>[2]> = {}) => ({
    mark: { kind: 'text' as const, text, fontSize: 30 },
    position: 'center' as const,
    opacity: 0.5,
    color: '#ff0000',
    repeat: false,
    spacingX: 100,
    spacingY: 100,
    margin: 36,
    ...extra,
  });

  it.each([['qpdf'], ['pdf-lib']])('with %s: the text is on the watermarked pages only', async (engine) => {
    const e = testEngines({ PDF_STAMP_ENGINES: engine });
    const { j, input } = await prepared(await numberedPdf(4, 'Mark'), { e });
    const out = await ops.watermarkPdf(j, input, spec('CONFIDENTIAL'), '1,3');
    const text = pagesText(out.path);
    expect(text.map((t) => t.includes('CONFIDENTIAL'))).toEqual([true, false, true, false]);
    expect(text[1]).toContain('Mark Page 2'); // the page content is still there
    expect(qpdfCheck(out.path).ok).toBe(true);
  });

  it.each([['qpdf'], ['pdf-lib']])(
    'with %s: places the mark where asked, as the page is displayed, on rotated pages too',
    async (engine) => {
      const e = testEngines({ PDF_STAMP_ENGINES: engine });
      for (const rotate of [0, 90, 180, 270]) {
        const { j, input } = await prepared(await numberedPdf(1, `Turn${rotate}`, { rotate }), { e });
        const out = await ops.watermarkPdf(
          j,
          input,
          spec('TOPLEFT', { position: 'top-left', opacity: 1, color: '#ff0000' }),
          '',
        );
        // Render as a viewer shows it, and find the red pixels.
        const png = path.join(path.dirname(out.path), `shown-${engine}-${rotate}`);
        run('pdftoppm', ['-r', '36', '-png', '-singlefile', out.path, png]);
        const { data, info } = await sharp(`${png}.png`).raw().toBuffer({ resolveWithObject: true });
        let minX = Infinity,
          minY = Infinity,
          maxX = -1,
          maxY = -1;
        for (let y = 0; y < info.height; y++) {
          for (let x = 0; x < info.width; x++) {
            const i = (y * info.width + x) * info.channels;
            if (data[i]! > 200 && data[i + 1]! < 80 && data[i + 2]! < 80) {
              minX = Math.min(minX, x);
              maxX = Math.max(maxX, x);
              minY = Math.min(minY, y);
              maxY = Math.max(maxY, y);
            }
          }
        }
        expect(info.width).toBe(rotate % 180 ? 421 : 298); // displayed width (842 or 595 pt at 36 dpi)
        expect(maxX).toBeGreaterThan(0);
        expect(minX).toBeLessThan(info.width * 0.15); // left
        expect(minY).toBeLessThan(info.height * 0.15); // top
        expect(maxX - minX).toBeGreaterThan(maxY - minY); // wider than tall: upright, not turned
      }
    },
  );

  it('tiles an image watermark and a diagonal text', async () => {
    const { j, input } = await prepared(await testDocument('pages_3.pdf'));
    const img = await ops.watermarkPdf(
      j,
      input,
      {
        ...spec('x'),
        mark: { kind: 'image', bytes: readFileSync(await testDocument('watermark.png')), format: 'png', scale: 0.1 },
        repeat: true,
      },
      '',
    );
    expect(pageCount(img.path)).toBe(3);
    const imgs = run('pdfimages', ['-list', img.path])
      .split('\n')
      .filter((l) => /^\s+\d+/.test(l));
    expect(imgs.length).toBeGreaterThanOrEqual(3);
    const diag = await ops.watermarkPdf(
      j,
      input,
      { ...spec('DRAFT'), mark: { kind: 'text', text: 'DRAFT' }, position: 'diagonal' },
      '2',
    );
    const raw = (p: number) =>
      run('pdftotext', ['-raw', '-f', String(p), '-l', String(p), diag.path, '-']).replace(/\s/g, '');
    expect(raw(2)).toContain('DRAFT');
    expect(raw(1)).not.toContain('DRAFT');
  });

  it('refuses text the standard fonts cannot draw, naming the field', async () => {
    const { j, input } = await prepared(await numberedPdf(1, 'Cjk'));
    const err = await engineErr(ops.watermarkPdf(j, input, spec('漢字'), ''));
    expect(err.code).toBe('INVALID_INPUT');
    expect(err.message).toMatch(/^text: /);
  });

  it('numbers pages with the format and start asked', async () => {
    const { j, input } = await prepared(await numberedPdf(3, 'Num'));
    const out = await ops.numberPages(
      j,
      input,
      {
        position: 'bottom-right',
        format: 'Page {n} of {total}',
        startAt: 5,
        fontSize: 10,
        color: '#000000',
        margin: 20,
      },
      '',
    );
    const text = pagesText(out.path);
    expect(text[0]).toContain('Page 5 of 7');
    expect(text[2]).toContain('Page 7 of 7');
  });
});

describe('protect and unlock', () => {
  it('encrypts with AES-256: no password fails, the password opens, permissions as asked', async () => {
    const { j, input } = await prepared(await numberedPdf(2, 'Lock'));
    const out = await ops.protectPdf(j, input, {
      userPassword: 'user-pw',
      ownerPassword: 'owner-pw',
      permissions: { print: false, copy: true, modify: false, annotate: true },
    });
    expect(() => run('qpdf', ['--check', out.path])).toThrow(/password/);
    const enc = run('qpdf', ['--password=user-pw', '--show-encryption', out.path]);
    expect(enc).toMatch(/R = 6/);
    expect(enc).toMatch(/AESv3/);
    expect(enc).toMatch(/print high resolution: not allowed/);
    expect(enc).toMatch(/extract for any purpose: allowed/);
    expect(enc).toMatch(/modify other: not allowed/);
    expect(enc).toMatch(/modify annotations: allowed/);
    expect(pagesText(out.path, 'user-pw')[0]).toContain('Lock Page 1');
  });

  it('opens with the password; refuses without it or with a wrong one', async () => {
    const locked = await encryptedPdf('user');
    expect((await engineErr(prepared(locked))).code).toBe('PASSWORD_REQUIRED');
    expect((await engineErr(prepared(locked, { password: 'nope' }))).code).toBe('WRONG_PASSWORD');
    const { j, input } = await prepared(locked, { password: 'open-sesame' });
    expect(input.wasEncrypted).toBe(true);
    const out = await ops.unlockPdf(j, input);
    expect(run('qpdf', ['--show-encryption', out.path])).toMatch(/File is not encrypted/);
    expect(pagesText(out.path)[1]).toContain('Secret Page 2');
    // Owner-password-only files open without a password; their restrictions are lifted.
    const { input: owner } = await prepared(await encryptedPdf('owner'));
    expect(owner.wasEncrypted).toBe(true);
    expect(run('qpdf', ['--show-encryption', owner.path])).toMatch(/File is not encrypted/);
  });
});

describe('metadata, analysis, text', () => {
  it('round-trips metadata', async () => {
    const { j, input } = await prepared(await testDocument('titled_bravo.pdf'));
    const before = await ops.readMetadata(j, input);
    expect(before.pages).toBe(pageCount(await testDocument('titled_bravo.pdf')));
    const out = await ops.updateMetadata(j, input, {
      title: 'Rapport annuel — été 2025',
      author: 'Zoë Müller',
      keywords: 'pdf, test; metadata',
      subject: null,
      creationDate: new Date('2024-02-03T04:05:06Z'),
    });
    const { j: j2, input: again } = await prepared(out.path);
    const after = await ops.readMetadata(j2, again);
    expect(after).toMatchObject({
      title: 'Rapport annuel — été 2025',
      author: 'Zoë Müller',
      keywords: 'pdf, test; metadata',
      subject: null,
    });
    expect(after.creationDate).toMatch(/^2024-02-03T04:05:06/);
  });

  it('extracts known text per page, with layout, and word boxes', async () => {
    const { j, input } = await prepared(await numberedPdf(3, 'Text'));
    const r = await ops.extractText(j, input, { pageRange: '2-3', layout: false, words: false });
    expect(r.pages.map((p) => p.page)).toEqual([2, 3]);
    expect(r.pages[0]!.text).toBe('Text Page 2\nBody text of text page 2.');
    const w = await ops.extractText(j, input, { pageRange: '1', layout: false, words: true });
    const word = w.pages[0]!.words!.find((x) => x.text === 'Text')!;
    expect(word.xMin).toBeCloseTo(50, 0);
    expect(word.yMin).toBeGreaterThan(0);
    expect(word.yMin).toBeLessThan(80);
    const documentText = await ops.extractText(
      ...(await (async () => {
        const p = await prepared(await testDocument('pages_3.pdf'));
        return [p.j, p.input] as const;
      })()),
      { layout: true, words: false },
    );
    expect(documentText.pages.map((p) => p.text.trim())).toEqual(['Page 1', 'Page 2', 'Page 3']);
  });

  it('extracts a long document across the free cores with the same text as one pdftotext run', async () => {
    expect(engines.limiter.stats().concurrency).toBeGreaterThanOrEqual(2); // else nothing is split
    const file = await numberedPdf(130, 'Long');
    const { j, input } = await prepared(file);
    const r = await ops.extractText(j, input, { layout: true, words: false });
    expect(r.pages.map((p) => p.page)).toEqual(Array.from({ length: 130 }, (_, i) => i + 1));
    expect(r.pages.map((p) => p.text.trim())).toEqual(pagesText(file));
    const w = await ops.extractText(j, input, { pageRange: '2-129', layout: false, words: true });
    expect(w.pages.map((p) => p.page)).toEqual(Array.from({ length: 128 }, (_, i) => i + 2));
    expect(w.pages.map((p) => p.text)).toEqual(
      Array.from({ length: 128 }, (_, i) => `Long Page ${i + 2} Body text of long page ${i + 2}.`),
    );
  });

  it('analyzes structure, fonts, images and text', async () => {
    const { j, input } = await prepared(await testDocument('image-heavy.pdf'));
    const a = await ops.analyzePdf(j, input);
    expect(a.pages).toBe(1);
    expect(a.images[0]).toMatchObject({ width: 640, height: 480 });
    expect(a.sizeBreakdown!.images).toBeGreaterThan(a.sizeBreakdown!.total * 0.8);
    const { j: j2, input: text } = await prepared(await testDocument('pages_3.pdf'));
    const t = await ops.analyzePdf(j2, text);
    expect(t.textPages).toEqual([1, 2, 3]);
    expect(t.scanned).toBe(false);
    expect(t.fonts.every((f) => f.embedded)).toBe(true);
    expect(t.pageSizes[0]).toMatchObject({ page: 1, width: 446.25, height: 631.5 });
  });
});

describe('compress, render, images', () => {
  it('compresses an image-heavy file a lot, and never returns a larger file', async () => {
    const { j, input } = await prepared(await testDocument('image-heavy.pdf'));
    const r = await ops.compressPdf(j, input, 'medium');
    expect(r.compressedSize).toBeLessThan(r.originalSize / 2);
    expect(statSync(r.path).size).toBe(r.compressedSize);
    expect(pageCount(r.path)).toBe(1);
    const { j: j2, input: tiny } = await prepared(await testDocument('page_1.pdf'));
    for (const level of ['low', 'medium', 'high'] as const) {
      const t = await ops.compressPdf(j2, tiny, level);
      expect(t.compressedSize).toBeLessThanOrEqual(t.originalSize);
      expect(statSync(t.path).size).toBeLessThanOrEqual(statSync(await testDocument('page_1.pdf')).size);
    }
    const analysis = await ops.compressionAnalysis(j, input);
    expect(analysis.recommendation).not.toBe('low');
    expect(analysis.estimates.find((e) => e.level === 'medium')!.estimatedSize).toBeLessThan(analysis.originalSize);
  });

  it('renders pages at the dpi asked (PNG and JPEG)', async () => {
    const { j, input } = await prepared(await testDocument('pages_3.pdf'));
    const pngs = await ops.renderPages(j, input, { format: 'png', dpi: 72, pages: '1,3', maxPixels: 1e8 });
    expect(pngs.map((p) => p.name)).toEqual(['page-1', 'page-3']);
    const m = await sharp(pngs[0]!.path).metadata();
    expect([m.format, m.width, m.height]).toEqual(['png', 447, 632]);
    const jpgs = await ops.renderPages(j, input, { format: 'jpg', dpi: 144, pages: '2', maxPixels: 1e8 });
    const m2 = await sharp(jpgs[0]!.path).metadata();
    expect([m2.format, m2.width, m2.height]).toEqual(['jpeg', 893, 1263]);
    const err = await engineErr(ops.renderPages(j, input, { format: 'png', dpi: 600, maxPixels: 1e6 }));
    expect(err.message).toMatch(/^dpi: /);
  });

  it('extracts embedded images', async () => {
    const { j, input } = await prepared(await testDocument('image-heavy.pdf'));
    const imgs = await ops.extractImages(j, input);
    expect(imgs.length).toBeGreaterThanOrEqual(1);
    const m = await sharp(imgs[0]!.path).metadata();
    expect([m.width, m.height]).toEqual([640, 480]);
  });
});

describe('flatten, repair, PDF/A', () => {
  it('flattens form fields into the page', async () => {
    const { j, input } = await prepared(await formPdf());
    expect(run('pdfinfo', [input.path])).toMatch(/Form:\s+AcroForm/);
    const out = await ops.flattenPdf(j, input);
    expect(pagesText(out.path)[0]).toContain('Ada Lovelace');
    const annots = run('qpdf', ['--json', '--json-key=pages', out.path]);
    expect(JSON.parse(annots).pages[0].annotations ?? []).toHaveLength(0);
  });

  it('repairs a truncated file with a classic xref table', async () => {
    const file = await truncatedPdf('classic');
    const j = await job();
    const out = await ops.repairPdf(j, src(file), 'cut.pdf');
    expect(out.pages).toBeGreaterThanOrEqual(1);
    expect(qpdfCheck(out.path).ok).toBe(true);
    expect(pagesText(out.path)[0]).toContain('Cut Page 1');
  });

  it('converts to PDF/A-2b with an output intent', async () => {
    const { j, input } = await prepared(await testDocument('pages_3.pdf'));
    const out = await ops.toPdfa(j, input);
    const bytes = readFileSync(out.path).toString('latin1');
    expect(bytes).toMatch(/pdfaid:part[='"]+2/);
    expect(bytes).toMatch(/pdfaid:conformance[='"]+B/);
    expect(bytes).toContain('/OutputIntents');
    expect(pagesText(out.path)).toEqual(['Page 1', 'Page 2', 'Page 3']);
  });
});

describe('bad input', () => {
  it('a non-PDF and an empty file are refused by their bytes', async () => {
    expect((await engineErr(prepared(await notAPdf()))).code).toBe('UNSUPPORTED_FORMAT');
    const empty = await engineErr(prepared(await emptyFile()));
    expect(empty.code).toBe('INVALID_PDF');
    expect(empty.message).toMatch(/empty/);
  });

  it('a truncated file with object streams is INVALID_PDF', async () => {
    const err = await engineErr(prepared(await truncatedPdf('objstm')));
    expect(err.code).toBe('INVALID_PDF');
  });

  it('does not trust /Count: a one-page file claiming 10^9 pages counts 1, fast', async () => {
    const tools = watchTools(engines);
    const { input } = await prepared(await countBombPdf(), { maxPages: 10 });
    tools.stop();
    expect(input.pages).toBe(1);
    // Counted by walking the one page there is, in process: no tool was asked.
    expect(tools.calls()).toEqual([]);
  });

  it('a huge page tree is refused by the plan limit before any work', async () => {
    const file = await hugeTreePdf(20_000);
    const tools = watchTools(engines);
    const err = await engineErr(prepared(file, { maxPages: 500 }));
    tools.stop();
    expect(err.code).toBe('PAGE_LIMIT_EXCEEDED');
    expect(err.message).toMatch(/more than 500 pages; your plan allows at most 500/);
    // Counting stopped past the limit, in process: no tool read the 20 000 pages.
    expect(tools.calls()).toEqual([]);
  });

  it('a cyclic page tree fails cleanly (422), in every engine of the chain', async () => {
    const file = await cyclicTreePdf();
    const j = await job();
    const res = await ops
      .preparePdf(j, src(file), { label: 'cycle' })
      .then(
        (input) => ops.rotatePages(j, input, 90, ''),
        (e) => Promise.reject(e),
      )
      .catch((e) => e);
    expect(['INVALID_PDF', 'INVALID_INPUT']).toContain(res.code);
  });

  it('a copy of an input keeps working after a failure (no shared state)', async () => {
    const file = await numberedPdf(1, 'After');
    const copy = path.join(path.dirname(file), 'after-copy.pdf');
    copyFileSync(file, copy);
    const { input } = await prepared(copy);
    expect(input.pages).toBe(1);
  });
});

describe('speculation (work overlapped with the input checks)', () => {
  it('a refusal by the checks kills the speculative work; its answer is never used', async () => {
    const j = await job(10, testEngines({ PROCESSING_SPECULATE: 'true' }));
    const big = await numberedPdf(40, 'Spec');
    const files = [src(big), src(await numberedPdf(2, 'Small'))];
    const spec = (await ops.speculateMerge(j, files))!;
    const err = await engineErr(ops.prepareAll(files, (f) => ops.preparePdf(j, f, { label: f.filename }), spec));
    expect(err.code).toBe('PAGE_LIMIT_EXCEEDED');
    const outcome = await spec.result.then(
      () => 'finished',
      (e) => e.code,
    );
    expect(['ABORTED', 'finished']).toContain(outcome); // killed, or already done: either way not answered
  });

  it('an input changed by the checks (decrypted) is redone on the checked file', async () => {
    const j = await job(undefined, testEngines({ PROCESSING_SPECULATE: 'true' }));
    const locked = src(await encryptedPdf('owner'));
    const spec = await ops.speculateText(j, locked, { layout: false, words: false });
    const [input] = await ops.prepareAll([locked], (f) => ops.preparePdf(j, f, { label: 'x' }), spec);
    expect(input!.path).not.toBe(locked.path);
    const r = await ops.extractText(j, input!, { layout: false, words: false }, spec);
    expect(r.pages.map((p) => p.text.split('\n')[0])).toEqual(['Secret Page 1', 'Secret Page 2']);
  });

  it('is off by default', async () => {
    const e = testEngines({});
    const j = await job(null, e);
    expect(await ops.speculateMerge(j, [src(await testDocument('page_1.pdf'))])).toBeUndefined();
  });
});
