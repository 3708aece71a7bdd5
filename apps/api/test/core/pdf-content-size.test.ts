import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { Readable, type Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import os from 'node:os';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engines } from '../../src/core/engines';
import { Ascii85Decoder, AsciiHexDecoder } from '../../src/core/modules/pdf-scan/ascii-filters';
import { contentLimits } from '../../src/core/modules/pdf-scan/limits';
import { pageContentSize } from '../../src/core/modules/pdf-scan/scan';
import { preparePdf } from '../../src/core/operations/pdf/job';
import { testEngines, testJob, workspacesDisposedAfterEach } from '../fixtures/engines';
import { testDocument } from '../fixtures/documents';
import { encryptedPdf, flateBombPdf, numberedPdf, rawPdf, truncatedPdf } from '../fixtures/pdfs';

/** pdf-scan's measure of the pages' decoded content, and preparePdf refusing a flate bomb with it. */

const MB = 1024 * 1024;
let tmp: string;
let engines: Engines;
const workspaces = workspacesDisposedAfterEach();

beforeAll(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'docflow-content-size-'));
  engines = testEngines();
});

afterAll(async () => {
  await engines.close();
  rmSync(tmp, { recursive: true, force: true });
});

const stream = (dict: string, data: Buffer) =>
  Buffer.concat([Buffer.from(`<< ${dict} /Length ${data.length} >>\nstream\n`), data, Buffer.from('\nendstream')]);

/** `pages` pages that all draw the same Flate content stream of `mb` MB. */
function sharedContentPdf(pages: number, mb: number): string {
  const file = path.join(tmp, `shared-${pages}-${mb}.pdf`);
  const content = deflateSync(Buffer.alloc(mb * MB, '0 0 m 10 10 l S\n'), { level: 9 });
  const kids = Array.from({ length: pages }, (_, i) => `${i + 4} 0 R`).join(' ');
  writeFileSync(
    file,
    rawPdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      `<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`,
      stream('/Filter /FlateDecode', content),
      ...Array.from({ length: pages }, () => '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 3 0 R >>'),
    ]),
  );
  return file;
}

/** A one-page PDF whose content is one stream, `content` (its dictionary entries and data). */
function onePagePdf(name: string, content: Buffer): string {
  const file = path.join(tmp, name);
  writeFileSync(
    file,
    rawPdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>',
      content,
    ]),
  );
  return file;
}

/** One page whose content is `bytes` of scrambled bytes that Flate cannot shrink (its encoded size is about the same). */
function incompressiblePdf(bytes: number): string {
  let x = 12345;
  const data = Buffer.alloc(bytes, 0).map(() => ((x = (Math.imul(x, 1103515245) + 12345) >>> 0), x >>> 24));
  return onePagePdf(`dense-${bytes}.pdf`, stream('/Filter /FlateDecode', deflateSync(data)));
}

/** `pages` pages offered, through the root's inherited resources, one Form XObject of `mb` MB that each draws. */
function sharedFormPdf(pages: number, mb: number): string {
  const file = path.join(tmp, `form-${pages}-${mb}.pdf`);
  const form = deflateSync(Buffer.alloc(mb * MB, '0 0 m 10 10 l S\n'), { level: 9 });
  const kids = Array.from({ length: pages }, (_, i) => `${i + 5} 0 R`).join(' ');
  writeFileSync(
    file,
    rawPdf([
      '<< /Type /Catalog /Pages 2 0 R >>',
      `<< /Type /Pages /Kids [${kids}] /Count ${pages} /Resources << /XObject << /Logo 3 0 R >> >> >>`,
      stream('/Type /XObject /Subtype /Form /BBox [0 0 10 10] /Filter /FlateDecode', form),
      stream('', Buffer.from('/Logo Do')),
      ...Array.from({ length: pages }, () => '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>'),
    ]),
  );
  return file;
}

const decode = async (decoder: Transform, input: string) => {
  const out: Buffer[] = [];
  await pipeline(Readable.from([Buffer.from(input, 'latin1')]), decoder, async (source: AsyncIterable<Buffer>) => {
    for await (const b of source) out.push(b);
  });
  return Buffer.concat(out);
};

describe('the ASCII filters', () => {
  it('ASCIIHexDecode: pairs of digits, spaces skipped, an odd last digit padded with 0, > ends', async () => {
    expect((await decode(new AsciiHexDecoder(), '48 65\n6c6C6F7>ignored')).toString('latin1')).toBe('Hellop');
  });

  it('ASCII85Decode: groups of five, z for four zero bytes, a short last group, ~> ends', async () => {
    const encoded = '87cURD_*#TDfTZ)+Wpab!!"-QDIb@~>ignored';
    expect((await decode(new Ascii85Decoder(), encoded)).toString('latin1')).toBe('Hello, world! \0\0\0\0 end.');
    expect(await decode(new Ascii85Decoder(), 'z~>')).toEqual(Buffer.alloc(4));
  });
});

describe('pageContentSize', () => {
  it('measures an ordinary PDF, within the bounds', async () => {
    const size = await pageContentSize(await numberedPdf(3, 'Size'));
    expect(size.over).toBeUndefined();
    expect(size.pages).toBe(3);
    expect(size.totalBytes).toBeGreaterThan(0);
    expect(size.largestPage.bytes).toBeLessThan(10_000);
    const doc = await pageContentSize(await testDocument('page_1.pdf'));
    expect(doc.over).toBeUndefined();
  });

  it('a 300 MB text flate bomb is over the page bound, never inflated whole', async () => {
    const bomb = await flateBombPdf('text', 300);
    const size = await pageContentSize(bomb);
    expect(size).toMatchObject({ over: 'page', pages: 1, largestPage: { page: 1 } });
    expect(size.largestPage.bytes).toBeGreaterThan(contentLimits.pageBytes);
    // Stopped a little past the bound, not at 300 MB.
    expect(size.largestPage.bytes).toBeLessThan(contentLimits.pageBytes + 4 * MB);
  });

  it('exact: false answers from the encoded lengths when even their most stays within the bounds; a bomb is still inflated', async () => {
    const file = await numberedPdf(3, 'Bound');
    const [exact, bound] = [await pageContentSize(file), await pageContentSize(file, undefined, { exact: false })];
    expect(bound).toMatchObject({ pages: 3, upperBound: true });
    expect(bound.over).toBeUndefined();
    expect(bound.totalBytes).toBeGreaterThanOrEqual(exact.totalBytes);
    expect(exact.upperBound).toBeUndefined();
    const bomb = await pageContentSize(await flateBombPdf('text', 300), undefined, { exact: false });
    expect(bomb).toMatchObject({ over: 'page', pages: 1 });
    expect(bomb.upperBound).toBeUndefined();
    // 40 KB of Flate that barely compresses could be 40 MB: measured, and found within the bounds.
    const dense = await pageContentSize(incompressiblePdf(40 * 1024), undefined, { exact: false });
    expect(dense).toMatchObject({ pages: 1, largestPage: { page: 1 } });
    expect(dense.over).toBeUndefined();
    expect(dense.upperBound).toBeUndefined();
    expect(dense.largestPage.bytes).toBe(40 * 1024);
  });

  it('a drawing bomb too', async () => {
    expect((await pageContentSize(await flateBombPdf('draw', 150))).over).toBe('page');
  });

  // Its time is a benchmark's business (a timed test fails on a loaded machine), not this test's.
  it('a many-page ordinary PDF passes', async () => {
    const file = await numberedPdf(400, 'Long');
    const size = await pageContentSize(file);
    expect(size).toMatchObject({ pages: 400 });
    expect(size.over).toBeUndefined();
  });

  it('a stream shared by many pages counts once per page against the file bound', async () => {
    const under = await pageContentSize(sharedContentPdf(10, 20));
    expect(under.over).toBeUndefined();
    expect(under.totalBytes).toBe(10 * 20 * MB);
    const over = await pageContentSize(sharedContentPdf(20, 20));
    expect(over.over).toBe('file');
    expect(over.totalBytes).toBeGreaterThan(contentLimits.fileBytes);
  });

  it('Form XObjects the page is offered count on the page; a form shared by every page counts once in the total', async () => {
    // 2 MB of form on each of 200 pages: 400 MB if counted per page, over the file bound; the form is one stream.
    const shared = await pageContentSize(sharedFormPdf(200, 2));
    expect(shared.over).toBeUndefined();
    expect(shared.largestPage.bytes).toBeGreaterThanOrEqual(2 * MB);
    expect(shared.totalBytes).toBeLessThan(3 * MB);
    // Past the page bound in its form alone: over, on page 1.
    const big = await pageContentSize(sharedFormPdf(2, contentLimits.pageBytes / MB + 1));
    expect(big).toMatchObject({ over: 'page', largestPage: { page: 1 } });
  });

  it('a bomb wrapped in an ASCII filter ([/ASCIIHexDecode /FlateDecode]) is measured through it', async () => {
    const bomb = readFileSync(await flateBombPdf('text', 300)).toString('latin1');
    const start = bomb.indexOf('stream\n') + 'stream\n'.length;
    const deflated = Buffer.from(bomb.slice(start, bomb.indexOf('\nendstream', start)), 'latin1');
    const file = onePagePdf(
      'hex-bomb.pdf',
      stream('/Filter [/AHx /FlateDecode]', Buffer.from(`${deflated.toString('hex')}>`)),
    );
    expect(await pageContentSize(file)).toMatchObject({ over: 'page', largestPage: { page: 1 } });
  });

  it('declines what it cannot read (encrypted, damaged): UNSUPPORTED_OPERATION', async () => {
    for (const file of [await encryptedPdf('user'), await truncatedPdf('objstm')]) {
      await expect(pageContentSize(file)).rejects.toMatchObject({ code: 'UNSUPPORTED_OPERATION' });
    }
  });
});

describe('preparePdf refuses page content over the bounds', () => {
  const src = (p: string) => ({ path: p, filename: path.basename(p), size: statSync(p).size });
  async function job() {
    const j = await testJob(engines, null);
    workspaces.push(j.ws);
    return j.job;
  }

  it('a flate bomb: PDF_CONTENT_TOO_LARGE naming the page, before any tool', async () => {
    const err = await preparePdf(await job(), src(await flateBombPdf('text', 300)), { label: '"bomb.pdf"' }).catch(
      (e) => e,
    );
    expect(err).toMatchObject({
      code: 'PDF_CONTENT_TOO_LARGE',
      details: { page: 1, maxPageContentBytes: contentLimits.pageBytes },
    });
    expect(err.message).toMatch(/^"bomb\.pdf": page 1 holds more than 32 MB/);
  });

  it('ordinary and encrypted files are admitted', async () => {
    expect((await preparePdf(await job(), src(await numberedPdf(3, 'Size')), { label: 'ok' })).pages).toBe(3);
    const enc = await preparePdf(await job(), src(await encryptedPdf('user')), {
      label: 'enc',
      password: 'open-sesame',
    });
    expect(enc.pages).toBe(2);
  });
});
