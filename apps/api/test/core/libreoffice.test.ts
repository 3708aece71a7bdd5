import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineError } from '../../src/core/errors';
import type { OfficeConvertOptions } from '../../src/core/operations/convert/interfaces';
import { Limiter } from '../../src/core/limiter';
import { libreofficeModule, type LibreOfficeEngine } from '../../src/core/modules/libreoffice/index';
import { createToolRunner } from '../../src/core/run-tool';
import {
  EMBEDDED_IMAGE_TEXT,
  LINKED_IMAGE_TEXT,
  linkedImageFodt,
  testDocument,
  type DocumentName,
} from '../fixtures/documents';
import { repeatedCellsFods } from '../fixtures/office-bombs';

const dir = mkdtempSync(path.join(os.tmpdir(), 'docflow-lo-test-'));
const out = (name: string) => path.join(dir, `${name}-${randomBytes(3).toString('hex')}.pdf`);

const ctx = {
  tools: createToolRunner({ limiter: new Limiter({ concurrency: 2, queueSize: 10 }), timeoutMs: 60_000 }),
  maxOutputBytes: 64 << 20,
};
// Both instances stay up for the whole file (the tests below look into each), however long it takes.
const engine = libreofficeModule.create(
  libreofficeModule.configSchema.parse({ IDLE_MS: '0' }),
  ctx,
) as LibreOfficeEngine;
const op = { scratch: dir };

const doc = testDocument;
const convert = async (input: string, name: string, opts: OfficeConvertOptions) => {
  const file = out(name);
  await engine.convertOffice(input, file, opts, op);
  return file;
};
const text = (pdf: string) => execFileSync('pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' });
const info = (pdf: string) => execFileSync('pdfinfo', ['-f', '1', '-l', '1', pdf], { encoding: 'utf8' });
const pages = (pdf: string) => Number(/^Pages:\s+(\d+)/m.exec(info(pdf))?.[1]);
/** Width and height of page 1 in points. */
const size = (pdf: string) => {
  const m = /^Page\s+1 size:\s+([\d.]+) x ([\d.]+)/m.exec(info(pdf))!;
  return { w: Number(m[1]), h: Number(m[2]) };
};
const images = (pdf: string) =>
  execFileSync('pdfimages', ['-list', pdf], { encoding: 'utf8' })
    .split('\n')
    .slice(2)
    .filter((l) => /^\s*\d+/.test(l));

const rejection = async (p: Promise<unknown>): Promise<EngineError> => {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(EngineError);
  return err as EngineError;
};

beforeAll(async () => {
  // Start both instances before the timed tests (a cold start is ~2 s; the warm conversions are the point).
  await Promise.all([
    convert(await doc('page_1.docx'), 'warm-a', { kind: 'document' }),
    convert(await doc('page_2.docx'), 'warm-b', { kind: 'document' }),
  ]);
}, 60_000);

afterAll(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('libreoffice: documents', () => {
  it('converts DOCX: text read back, page counts', async () => {
    const one = await convert(await doc('page_1.docx'), 'page1', { kind: 'document' });
    expect(pages(one)).toBe(1);
    expect(text(one)).toContain('Page 1');

    const three = await convert(await doc('pages_3.docx'), 'pages3', { kind: 'document' });
    expect(pages(three)).toBe(3);
    const t = text(three).split('\f');
    for (const n of [1, 2, 3]) expect(t[n - 1]).toContain(`Page ${n}`);
  });

  it('reads a file whose name is not ASCII', async () => {
    const pdf = await convert(await doc('Special_Chars_ß.docx'), 'special', { kind: 'document' });
    expect(pages(pdf)).toBe(1);
    expect(text(pdf).trim().length).toBeGreaterThan(0);
  });

  it('keeps an embedded image', async () => {
    const pdf = await convert(await doc('embedded-image.fodt'), 'embedded', { kind: 'document' });
    expect(text(pdf)).toContain(EMBEDDED_IMAGE_TEXT);
    expect(images(pdf)).toHaveLength(1);
  });

  it('converts plain text as a document', async () => {
    const txt = path.join(dir, 'note.txt');
    writeFileSync(txt, 'Plain text, café and naïve.\nSecond line.\n');
    const pdf = await convert(txt, 'txt', { kind: 'document' });
    expect(text(pdf)).toContain('café and naïve');
  });
});

describe('libreoffice: spreadsheets and presentations', () => {
  it('converts XLSX and CSV', async () => {
    const xlsx = await convert(await doc('wide-sheet.xlsx'), 'xlsx', { kind: 'spreadsheet' });
    expect(pages(xlsx)).toBeGreaterThan(1);
    expect(size(xlsx).h).toBeGreaterThan(size(xlsx).w);

    const csv = await convert(await doc('sheet.csv'), 'csv', { kind: 'spreadsheet' });
    expect(pages(csv)).toBe(1);
    const t = text(csv);
    expect(t).toMatch(/Alice\s+100/);
    expect(t).toMatch(/Bob\s+200/);
  });

  it('landscape turns every page; fitToPage scales each sheet to one page wide', async () => {
    const input = await doc('wide-sheet.xlsx');
    const plain = await convert(input, 'plain', { kind: 'spreadsheet' });
    const landscape = await convert(input, 'landscape', { kind: 'spreadsheet', landscape: true });
    const fit = await convert(input, 'fit', { kind: 'spreadsheet', fitToPage: true });
    const both = await convert(input, 'both', { kind: 'spreadsheet', landscape: true, fitToPage: true });

    const p = size(plain);
    const l = size(landscape);
    expect(p.h).toBeGreaterThan(p.w);
    expect(l.w).toBeCloseTo(p.h, 0);
    expect(l.h).toBeCloseTo(p.w, 0);
    const all = execFileSync('pdfinfo', ['-f', '1', '-l', '100', landscape], { encoding: 'utf8' });
    const sizes = [...all.matchAll(/^Page\s+\d+ size:\s+([\d.]+) x ([\d.]+)/gm)];
    expect(sizes.length).toBe(pages(landscape));
    for (const m of sizes) expect(Number(m[1])).toBeGreaterThan(Number(m[2]));

    // Columns that spilled onto extra pages now fit in the width: fewer pages, same text.
    expect(pages(fit)).toBeLessThan(pages(plain));
    // One landscape page wide is scaled down less than one portrait page wide: it may run to more pages tall.
    expect(pages(both)).toBeLessThan(pages(plain));
    expect(size(both).w).toBeGreaterThan(size(both).h);
    const words = (f: string) => new Set(text(f).split(/\s+/).filter(Boolean));
    expect(words(fit)).toEqual(words(plain));
  });

  it('ignores the spreadsheet options for other kinds', async () => {
    const pdf = await convert(await doc('pages_3.docx'), 'doc-landscape', {
      kind: 'document',
      landscape: true,
      fitToPage: true,
    });
    expect(pages(pdf)).toBe(3);
  });

  it('converts a PPSX show with the impress filter', async () => {
    const pdf = await convert(await doc('slideshow.ppsx'), 'ppsx', { kind: 'presentation' });
    expect(pages(pdf)).toBeGreaterThanOrEqual(1);
    const s = size(pdf);
    expect(s.w).toBeGreaterThan(s.h);
    expect(info(pdf)).toMatch(/Producer:\s+LibreOffice/);
  });
});

describe('libreoffice: passwords', () => {
  it('PASSWORD_REQUIRED without a password, WRONG_PASSWORD with a wrong one, text with the right one', async () => {
    const protectedDoc = await doc('protected_page_1.docx');
    const none = await rejection(convert(protectedDoc, 'pw-none', { kind: 'document' }));
    expect(none.code).toBe('PASSWORD_REQUIRED');
    expect(none.details).toEqual({ field: 'password' });

    const wrong = await rejection(convert(protectedDoc, 'pw-wrong', { kind: 'document', password: 'bar' }));
    expect(wrong.code).toBe('WRONG_PASSWORD');

    const pdf = await convert(protectedDoc, 'pw-right', { kind: 'document', password: 'foo' });
    expect(pages(pdf)).toBe(1);
    expect(text(pdf)).toContain('Page 1');
  });
});

describe('libreoffice: input it cannot read', () => {
  it('random bytes and a truncated DOCX are INVALID_DOCUMENT, with no output left behind', async () => {
    const junk = path.join(dir, 'junk.docx');
    writeFileSync(junk, randomBytes(4096));
    const truncated = path.join(dir, 'truncated.docx');
    writeFileSync(truncated, readFileSync(await doc('page_1.docx')).subarray(0, 3000));

    for (const input of [junk, truncated]) {
      const file = out('junk');
      const err = await rejection(engine.convertOffice(input, file, { kind: 'document' }, op));
      expect(err.code).toBe('INVALID_DOCUMENT');
      expect(err.message).not.toContain(dir); // no paths in client messages
      expect(existsSync(file)).toBe(false);
    }
  });

  it('a document of another kind than asked is INVALID_DOCUMENT', async () => {
    const err = await rejection(convert(await doc('page_1.docx'), 'kind', { kind: 'spreadsheet' }));
    expect(err.code).toBe('INVALID_DOCUMENT');
  });

  it("a missing input is ENGINE_FAILED (not the client's fault) and the pool still works", async () => {
    const err = await rejection(convert(path.join(dir, 'nope.docx'), 'missing', { kind: 'document' }));
    expect(err.code).toBe('ENGINE_FAILED');
    expect(text(await convert(await doc('page_1.docx'), 'after-missing', { kind: 'document' }))).toContain('Page 1');
  });
});

describe('libreoffice: security', () => {
  let server: Server;
  let hits: string[] = [];
  let png: Buffer;
  beforeAll(async () => {
    png = readFileSync(await doc('watermark.png'));
    server = createServer((req, res) => {
      hits.push(`${req.method} ${req.url}`);
      res.writeHead(200, { 'content-type': 'image/png' }).end(png);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('macros are disabled and links are blocked in every instance', () => {
    const insts = engine.pool.instances();
    expect(insts.length).toBe(2);
    for (const i of insts)
      expect(i.security).toEqual({
        MacroSecurityLevel: 3,
        DisableMacrosExecution: true,
        BlockUntrustedRefererLinks: true,
      });
  });

  it('never fetches a linked remote image, and still converts the document', async () => {
    hits = [];
    const { port } = server.address() as AddressInfo;
    const input = path.join(dir, 'linked-remote.fodt');
    writeFileSync(input, linkedImageFodt(`http://127.0.0.1:${port}/tracker.png`));

    const pdf = await convert(input, 'linked', { kind: 'document' });
    expect(pages(pdf)).toBe(1);
    expect(text(pdf)).toContain(LINKED_IMAGE_TEXT);
    expect(images(pdf)).toHaveLength(0);
    await new Promise((r) => setTimeout(r, 200)); // a late fetch would still show up
    expect(hits).toEqual([]);
  });

  it('does not read a linked local file either', async () => {
    const input = path.join(dir, 'linked-local.fodt');
    writeFileSync(input, linkedImageFodt(`file://${await doc('watermark.png')}`));
    const pdf = await convert(input, 'linked-local', { kind: 'document' });
    expect(text(pdf)).toContain(LINKED_IMAGE_TEXT);
    expect(images(pdf)).toHaveLength(0);
  });
});

describe('libreoffice: concurrency', () => {
  it('four conversions at once on two instances all come back right', async () => {
    const jobs: Array<[DocumentName, OfficeConvertOptions, RegExp, number]> = [
      ['pages_3.docx', { kind: 'document' }, /Page 3/, 3],
      ['page_1.docx', { kind: 'document' }, /Page 1/, 1],
      ['sheet.csv', { kind: 'spreadsheet' }, /Alice\s+100/, 1],
      ['page_2.docx', { kind: 'document' }, /Page 2/, 1],
    ];
    const inputs = await Promise.all(jobs.map(([name]) => doc(name)));
    const started = engine.pool.stats().started;
    const files = await Promise.all(jobs.map(([, opts], i) => convert(inputs[i]!, `conc-${i}`, opts)));
    files.forEach((f, i) => {
      expect(text(f)).toMatch(jobs[i]![2]);
      expect(pages(f)).toBe(jobs[i]![3]);
    });
    expect(engine.pool.stats()).toMatchObject({ size: 2, running: 2, busy: 0, waiting: 0, started });
  });
});

describe('libreoffice: a document past what one conversion may take', () => {
  const bomb = path.join(dir, 'bomb.fods');
  beforeAll(() => writeFileSync(bomb, repeatedCellsFods()));

  it("past the plan's deadline: DOCUMENT_TOO_COMPLEX naming it (the caller's document), the instance replaced", async () => {
    const err = await rejection(convert(bomb, 'bomb-deadline', { kind: 'spreadsheet', timeoutMs: 1500 }));
    expect(err.code).toBe('DOCUMENT_TOO_COMPLEX');
    expect(err.details).toEqual({ limit: 'processingTimeoutSeconds', value: 1.5 });
    expect(pages(await convert(await doc('page_1.docx'), 'after-deadline', { kind: 'document' }))).toBe(1);
  }, 60_000);

  it('past the memory cap of one conversion: DOCUMENT_TOO_COMPLEX naming it', async () => {
    const small = libreofficeModule.create(
      libreofficeModule.configSchema.parse({ JOB_MEMORY_MB: '1', INSTANCES: '1' }),
      ctx,
    ) as LibreOfficeEngine;
    try {
      const err = await rejection(small.convertOffice(bomb, out('bomb-memory'), { kind: 'spreadsheet' }, op));
      expect(err.code).toBe('DOCUMENT_TOO_COMPLEX');
      expect(err.details).toEqual({ limit: 'memory', value: 1_048_576 });
      expect(err.message).toMatch(/more than 1 MB of memory/);
    } finally {
      await small.close();
    }
  }, 60_000);
});
