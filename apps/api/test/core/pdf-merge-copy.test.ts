import { chmodSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadEngineConfig } from '../../src/config/engines';
import { createEngines } from '../../src/core/create-engines';
import type { Engines } from '../../src/core/engines';
import type { Engine, OpContext } from '../../src/core/interfaces';
import { pdfScanModule } from '../../src/core/modules/pdf-scan/index';
import { popplerModule } from '../../src/core/modules/poppler/index';
import { refSpans } from '../../src/core/modules/pdf-scan/ref-spans';
import {
  generatedPdfs,
  hybridPdf,
  incrementalPdf,
  lyingCountPdf,
  nestedTreePdf,
  PdfWriter,
} from '../fixtures/pdf-structures';
import {
  encryptedPdf,
  formPdf,
  numberedPdf,
  pageCount,
  pagesText,
  qpdfCheck,
  qpdfObjects,
  run,
  truncatedPdf,
} from '../fixtures/pdfs';

/**
 * Merge by copy, pdf-scan's merge: every page of every input, in order, with what it inherits and its bytes as
 * written, read back by qpdf and poppler; and what it leaves to the tools.
 */

let engines: Engines;
let scan: Engine;
let poppler: Engine;
const dir = mkdtempSync(path.join(os.tmpdir(), 'docflow-merge-copy-'));
chmodSync(dir, 0o755); // the tools run as their own user, as in a request's workspace
const ctx: OpContext = { scratch: dir };
let n = 0;
const outFile = () => path.join(dir, `merged-${++n}.pdf`);

beforeAll(() => {
  engines = createEngines(loadEngineConfig({ PROCESSING_TIMEOUT_MS: '20000' }));
  const engineCtx = { tools: engines.tools, maxOutputBytes: 64 * 1024 * 1024 };
  scan = pdfScanModule.create({}, engineCtx);
  poppler = popplerModule.create(popplerModule.configSchema.parse({}), engineCtx);
});
afterAll(() => engines.close());

async function merged(inputs: string[]): Promise<string> {
  const out = outFile();
  await scan.merge!(inputs, out, ctx);
  const check = qpdfCheck(out);
  expect(check.ok, check.out).toBe(true);
  return out;
}

const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: { code?: string }) => e.code,
  );

/** A small file written by hand, to put exact bytes in it. */
function handWritten(name: string, build: (w: PdfWriter) => void, header?: string): string {
  const w = new PdfWriter(header);
  build(w);
  const file = path.join(dir, name);
  writeFileSync(file, w.bytes());
  return file;
}

describe('merge by copy: every page, in order, as the tools read it', () => {
  it('pdf-lib files (object streams), classic tables, incremental and hybrid files: the pages and their text', async () => {
    const generated = await generatedPdfs(4);
    const inputs = [
      await numberedPdf(3, 'First'),
      generated.classic,
      generated.objectStreams,
      await incrementalPdf(),
      await hybridPdf(),
    ];
    const out = await merged(inputs);
    expect(pageCount(out)).toBe(inputs.reduce((sum, f) => sum + pageCount(f), 0));
    expect(pagesText(out)).toEqual(inputs.flatMap((f) => pagesText(f)));
  });

  it('the same file twice: two copies of each object, each page once per copy', async () => {
    const a = await numberedPdf(2, 'Twice');
    const out = await merged([a, a]);
    expect(pagesText(out)).toEqual([...pagesText(a), ...pagesText(a)]);
  });

  it('keeps what pages inherit from their tree (boxes and rotation on three levels), as poppler reports them', async () => {
    const nested = await nestedTreePdf();
    const flat = await numberedPdf(2, 'Flat', { rotate: 90 });
    const out = await merged([flat, nested]);
    const before = [...(await poppler.pageBoxes!(flat, {}, ctx)), ...(await poppler.pageBoxes!(nested, {}, ctx))];
    const after = await poppler.pageBoxes!(out, {}, ctx);
    expect(after).toEqual(before.map((b, i) => ({ ...b, page: i + 1 })));
  });

  it('renumbers references and nothing else: strings, names and comments that look like references, and stream data, stay byte for byte', async () => {
    const content = Buffer.concat([
      Buffer.from('BT /F1 18 Tf 72 700 Td (Copied as written) Tj ET\n% '),
      randomBytes(64).map((b) => (b === 0x0a || b === 0x0d ? 0x20 : b)), // a binary comment: one line
    ]);
    const annot =
      '<< /Type /Annot /Subtype /Text /Rect [72 600 92 620] /Contents (see 3 0 R \\) and \\(1 0 R) /NM <3320302052> /P 3 0 R >>';
    const file = handWritten('look-alikes.pdf', (w) => {
      w.object(1, '<< /Type /Catalog /Pages 2 0 R >>');
      w.object(2, '<< /Type /Pages /Kids [3 0 R] /Count 1 /MediaBox [0 0 612 792] >>');
      w.object(
        3,
        `<< /Type /Page /Parent 2 0 R % a comment: 9 0 R\n/Contents 4 0 R /Annots [5 0 R] /Resources << /Font << /F1 6 0 R >> >> >>`,
      );
      w.stream(4, '', content);
      w.object(5, annot);
      w.object(6, '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
      w.xrefTable([1, 2, 3, 4, 5, 6], '<< /Size 7 /Root 1 0 R >>');
    });
    const out = await merged([file, file]);
    const bytes = readFileSync(out);
    const count = (needle: Buffer | string) => {
      let found = 0;
      for (let at = bytes.indexOf(needle); at >= 0; at = bytes.indexOf(needle, at + 1)) found++;
      return found;
    };
    // The annotation's strings are untouched; its /P, a reference to its page, is renumbered in each copy.
    expect(count('/Contents (see 3 0 R \\) and \\(1 0 R) /NM <3320302052> /P ')).toBe(2);
    expect(count('% a comment: 9 0 R')).toBe(2);
    expect(count(content)).toBe(2);
    expect(pagesText(out)).toEqual(['Copied as written', 'Copied as written']);
    // Each copy's annotation is its own page's: /Annots and /P are renumbered alike.
    const { pages, objects } = qpdfObjects(out);
    const annotOf = (page: string) =>
      objects[`obj:${(objects[`obj:${page}`]!.value['/Annots'] as string[])[0]}`]!.value;
    expect(pages.map((p) => annotOf(p)['/P'])).toEqual(pages);
    expect(new Set(pages).size).toBe(2);
  });

  it('a large file is read by blocks and its stream data streamed: a 3 MB image, byte for byte', async () => {
    const image = randomBytes(1024 * 1024 * 3);
    const file = handWritten('large-image.pdf', (w) => {
      w.object(1, '<< /Type /Catalog /Pages 2 0 R >>');
      w.object(2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>');
      w.object(
        3,
        '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 300] /Contents 4 0 R /Resources << /XObject << /Im 5 0 R >> >> >>',
      );
      w.stream(4, '', Buffer.from('q 300 0 0 300 0 0 cm /Im Do Q'));
      w.stream(
        5,
        '/Type /XObject /Subtype /Image /Width 1024 /Height 1024 /ColorSpace /DeviceRGB /BitsPerComponent 8',
        image,
      );
      w.xrefTable([1, 2, 3, 4, 5], '<< /Size 6 /Root 1 0 R >>');
    });
    const out = await merged([await numberedPdf(1, 'Before'), file]);
    expect(pageCount(out)).toBe(2);
    expect(readFileSync(out).indexOf(image)).toBeGreaterThan(0);
    expect(run('pdfimages', ['-list', out])).toMatch(/1024\s+1024\s+rgb/);
  });

  it('writes the highest version of its inputs', async () => {
    const v20 = handWritten(
      'version-2.pdf',
      (w) => {
        w.object(1, '<< /Type /Catalog /Pages 2 0 R >>');
        w.object(2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>');
        w.object(3, '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] >>');
        w.xrefTable([1, 2, 3], '<< /Size 4 /Root 1 0 R >>');
      },
      '%PDF-2.0\n%\xe2\xe3\xcf\xd3\n',
    );
    const out = await merged([await numberedPdf(1, 'Old'), v20]);
    expect(readFileSync(out).subarray(0, 8).toString()).toBe('%PDF-2.0');
  });

  it('drops the catalog entries pdfunite drops too (outline, open action, scripts, structure tree), and only those', async () => {
    const catalogKeys = (file: string) => {
      const { objects } = qpdfObjects(file);
      return Object.keys(objects[`obj:${objects.trailer!.value['/Root'] as string}`]!.value).sort();
    };
    const file = handWritten('catalog-entries.pdf', (w) => {
      w.object(
        1,
        '<< /Type /Catalog /Pages 2 0 R /Version /1.7 /Lang (en) /Metadata 4 0 R /PageLayout /OneColumn /PageMode /UseOutlines' +
          ' /ViewerPreferences << /DisplayDocTitle true >> /PageLabels << /Nums [0 << /S /r >>] >> /MarkInfo << /Marked true >>' +
          ' /StructTreeRoot 5 0 R /Outlines 6 0 R /OpenAction [3 0 R /Fit] /AA << /WC << /S /JavaScript /JS (app.alert(1)) >> >> >>',
      );
      w.object(2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>');
      w.object(3, '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 300] /StructParents 0 >>');
      w.stream(4, '/Type /Metadata /Subtype /XML', Buffer.from('<x:xmpmeta xmlns:x="adobe:ns:meta/"/>'));
      w.object(5, '<< /Type /StructTreeRoot >>');
      w.object(6, '<< /Type /Outlines /Count 0 >>');
      w.xrefTable([1, 2, 3, 4, 5, 6], '<< /Size 7 /Root 1 0 R >>');
    });
    expect(catalogKeys(file)).toHaveLength(14);
    const ok = await numberedPdf(1, 'Beside');
    const out = await merged([file, ok]);
    expect(catalogKeys(out)).toEqual(['/Pages', '/Type']);
    expect(pageCount(out)).toBe(2);
    // The next engine of the chain makes the same document of it.
    // Written where the tools' own account may write (the test's folder is root's).
    const unite = path.join(mkdtempSync(path.join(os.tmpdir(), 'docflow-unite-')), 'united.pdf');
    chmodSync(path.dirname(unite), 0o777);
    await poppler.merge!([file, ok], unite, ctx);
    expect(catalogKeys(unite)).toEqual(['/Pages', '/Type']);
  });

  it('answers first in the default chain', async () => {
    const out = outFile();
    const inputs = [await numberedPdf(2, 'ChainA'), await numberedPdf(3, 'ChainB')];
    const r = await engines.run('merge', (f) => f(inputs, out, ctx));
    expect(r.engine).toBe('pdf-scan');
    expect(engines.chain('merge')).toEqual(['pdf-scan', 'poppler', 'qpdf', 'pdf-lib']);
    expect(pagesText(out)).toEqual([...pagesText(inputs[0]!), ...pagesText(inputs[1]!)]);
  });
});

describe('leaves to the tools (UNSUPPORTED_OPERATION, no output left), which still merge', () => {
  const cases: Array<[string, () => Promise<string>]> = [
    ['an encrypted file', () => encryptedPdf('owner')],
    ['a form (the catalog has /AcroForm)', formPdf],
    ['a root /Count that disagrees with its pages', () => lyingCountPdf(3, 5)],
    [
      'an intermediate /Count that disagrees with its pages',
      async () =>
        handWritten('lying-node.pdf', (w) => {
          w.object(1, '<< /Type /Catalog /Pages 2 0 R >>');
          w.object(2, '<< /Type /Pages /Kids [3 0 R] /Count 2 >>');
          w.object(3, '<< /Type /Pages /Parent 2 0 R /Kids [4 0 R 5 0 R] /Count 1 /MediaBox [0 0 300 300] >>');
          w.object(4, '<< /Type /Page /Parent 3 0 R >>');
          w.object(5, '<< /Type /Page /Parent 3 0 R >>');
          w.xrefTable([1, 2, 3, 4, 5], '<< /Size 6 /Root 1 0 R >>');
        }),
    ],
    [
      'named destinations (the catalog has /Names)',
      async () =>
        handWritten('names.pdf', (w) => {
          w.object(1, '<< /Type /Catalog /Pages 2 0 R /Names << /Dests 4 0 R >> >>');
          w.object(2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>');
          w.object(3, '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 300] >>');
          w.object(4, '<< /Names [(top) [3 0 R /Fit]] >>');
          w.xrefTable([1, 2, 3, 4], '<< /Size 5 /Root 1 0 R >>');
        }),
    ],
    [
      'a reference whose object number is signed',
      async () =>
        handWritten('signed-ref.pdf', (w) => {
          w.object(1, '<< /Type /Catalog /Pages 2 0 R >>');
          w.object(2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>');
          w.object(3, '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 300 300] /Thumb +4 0 R >>');
          w.object(4, '<< >>');
          w.xrefTable([1, 2, 3, 4], '<< /Size 5 /Root 1 0 R >>');
        }),
    ],
    ['a truncated file', () => truncatedPdf('classic')],
  ];

  it.each(cases)('%s', async (_name, make) => {
    const file = await make();
    const ok = await numberedPdf(1, 'Fine');
    const out = outFile();
    expect(await codeOf(scan.merge!([ok, file], out, ctx))).toBe('UNSUPPORTED_OPERATION');
    expect(existsSync(out)).toBe(false);
    const by = await engines
      .run('merge', (f) => f([ok, file], out, ctx))
      .then(
        (r) => r.engine,
        (e: { code?: string }) => e.code,
      );
    // A tool merges it, or (a file the tools cannot merge either) the chain fails with the tools' own error.
    expect(['poppler', 'qpdf', 'pdf-lib', 'INVALID_PDF', 'PASSWORD_REQUIRED']).toContain(by);
    if (by === 'poppler' || by === 'qpdf' || by === 'pdf-lib') expect(pageCount(out)).toBeGreaterThan(1);
  });
});

describe('refSpans: the references in an object, by its bytes', () => {
  const spans = (s: string) =>
    refSpans(Buffer.from(s, 'latin1'), 0, s.length).map((r) => [s.slice(r.start, r.end), r.ref.num, r.ref.gen]);

  it('finds `num gen R` in dictionaries and arrays, not in strings, names or comments', () => {
    expect(spans('<< /A 1 0 R /B [2 0 R 3 1 R] /C (4 0 R) /D <4 0 52> /R 5 /E 6 0 R >>')).toEqual([
      ['1 0 R', 1, 0],
      ['2 0 R', 2, 0],
      ['3 1 R', 3, 1],
      ['6 0 R', 6, 0],
    ]);
    expect(spans('[1 2 0 R]')).toEqual([['2 0 R', 2, 0]]);
    expect(spans('[1 0 R 0 R]')).toEqual([['1 0 R', 1, 0]]);
    expect(spans('<< /A (a \\) 7 0 R (nested) ) % 8 0 R\n /B 9 0\nR >>')).toEqual([['9 0\nR', 9, 0]]);
    expect(spans('[1.0 0 R /X 1 /R 0 R 1 0 RG]')).toEqual([]);
  });

  it('gives up on a signed object number or generation, which a reader could take for a reference', () => {
    expect(() => spans('<< /A -1 0 R >>')).toThrow(/signed/);
    expect(() => spans('<< /A 1 +0 R >>')).toThrow(/signed/);
    expect(() => spans('(unterminated 1 0 R')).toThrow(/unterminated/);
    // Copies are keyed by number and generation below 65536: a larger generation could name another object's copy.
    expect(() => spans('<< /A 1 65536 R >>')).toThrow(/generation/);
  });
});
