import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  PDFDocument,
  PDFName,
  PDFRawStream,
  StandardFonts,
  TextRenderingMode,
  beginText,
  decodePDFRawStream,
  endText,
  moveText,
  setFontAndSize,
  setTextRenderingMode,
  showText,
  type PDFArray,
  type PDFRef,
} from 'pdf-lib';
import sharp, { type Sharp } from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { estimateSkew, greyOf } from '../../../src/core/ocr/image';
import { processingApp } from '../../fixtures/api';
import { saveBody, unzip } from '../../fixtures/results';
import { ENGLISH, normalise, scannedPdf, textImage } from './ocr-images';

/**
 * OCRmyPDF's options on /ocr/searchable-pdf, each proved on scans the tests make: a page turned sideways comes out
 * upright and read, a page skewed 3° comes out straight, skip-text leaves a text page's content bytes as they were,
 * force rasterises it, clean keeps the original image, sidecar, PDF/A and optimize.
 */

let api: Awaited<ReturnType<typeof processingApp>>;
let upright: Buffer;
beforeAll(async () => {
  api = await processingApp({ allowedEndpoints: ['ocr'] });
  upright = await textImage({ lines: ENGLISH, height: 700 });
});
afterAll(() => api.t.close());

const searchable = (fields: Record<string, string>, content: Buffer, filename = 'scan.pdf') =>
  api.post('/ocr/searchable-pdf', fields, [{ content, filename }]);
const textOf = (pdf: string) => execFileSync('pdftotext', ['-enc', 'UTF-8', pdf, '-']).toString('utf8');
const ok = (res: { statusCode: number; body: string; rawPayload: Buffer }) => {
  expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
  return saveBody(res.rawPayload);
};

/** Page 1 rendered at `dpi`, grey pixels. */
async function rendered(pdf: string, dpi = 150) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'docflow-ocr-opts-'));
  execFileSync('pdftoppm', ['-r', String(dpi), '-gray', '-png', '-f', '1', '-l', '1', pdf, path.join(dir, 'p')]);
  return path.join(dir, readdirSync(dir)[0]!);
}

/** The decoded bytes of every content stream of page `n` (1-based). */
async function contentBytes(pdf: Buffer, n: number): Promise<Buffer> {
  const doc = await PDFDocument.load(pdf);
  const node = doc.getPage(n - 1).node;
  const contents = node.Contents();
  const refs = contents && 'asArray' in contents ? (contents as PDFArray).asArray() : [contents];
  const parts = refs.map((r) => {
    const stream = doc.context.lookup(r as PDFRef) as PDFRawStream;
    return Buffer.from(decodePDFRawStream(stream).decode());
  });
  return Buffer.concat(parts);
}

/** A born-digital text page, then a scanned one. */
async function mixedPdf(): Promise<Buffer> {
  const scan = await PDFDocument.load(await scannedPdf([upright]));
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595, 842]);
  page.drawText('A born digital page of ordinary text, written by a program.', { x: 50, y: 780, size: 14, font });
  const [copied] = await doc.copyPages(scan, [0]);
  doc.addPage(copied);
  return Buffer.from(await doc.save());
}

/** A scan with an earlier, wrong OCR layer (invisible text), then a page of visible text. */
async function oldOcrPdf(): Promise<Buffer> {
  const doc = await PDFDocument.load(await scannedPdf([upright]));
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const scan = doc.getPage(0);
  scan.pushOperators(
    beginText(),
    setFontAndSize(font.name, 12),
    setTextRenderingMode(TextRenderingMode.Invisible),
    moveText(40, 60),
    showText(font.encodeText('Obsolete garbled words from an old engine')),
    endText(),
  );
  scan.node.setFontDictionary(PDFName.of(font.name), font.ref);
  const page = doc.addPage([595, 842]);
  page.drawText('A born digital page of ordinary text, written by a program.', { x: 50, y: 780, size: 14, font });
  return Buffer.from(await doc.save());
}

describe('POST /ocr/searchable-pdf: OCRmyPDF’s options', () => {
  it('redo-ocr: an earlier invisible OCR layer is replaced; a page of visible text is kept byte for byte', async () => {
    const pdf = await oldOcrPdf();
    const kept = textOf(ok(await searchable({}, pdf)));
    expect(kept).toContain('Obsolete garbled words');
    const res = await searchable({ mode: 'redo-ocr' }, pdf);
    const out = readFileSync(ok(res));
    expect(res.headers['x-ocr-pages']).toBe('1');
    expect(res.headers['x-ocr-skipped-pages']).toBe('2');
    const [p1, p2] = textOf(saveBody(out)).split('\f');
    expect(p1).not.toContain('Obsolete');
    expect(normalise(p1!)).toContain(normalise(ENGLISH[0]!));
    expect(p2).toContain('born digital page');
    expect((await contentBytes(out, 2)).equals(await contentBytes(pdf, 2))).toBe(true);
  });

  it('rotatePages: a page scanned sideways is turned upright (its rotation set, its content kept) and read', async () => {
    const sideways = await sharp(upright).rotate(90).png().withMetadata({ density: 300 }).toBuffer();
    const pdf = await scannedPdf([sideways]);
    const res = await searchable({ rotatePages: 'true' }, pdf);
    const out = ok(res);
    expect(res.headers['x-ocr-rotated-pages']).toBe('1:270');
    expect(execFileSync('pdfinfo', [out]).toString()).toMatch(/Page rot:\s+270/);
    expect(normalise(textOf(out))).toContain(normalise(ENGLISH[0]!));
    // As a viewer shows it: the page rendered upright reads by itself.
    const shown = execFileSync('tesseract', [await rendered(out, 300), '-', '--psm', '3'], {
      env: { ...process.env, OMP_THREAD_LIMIT: '1' },
    }).toString();
    expect(normalise(shown)).toContain('quick brown fox');
  });

  it('deskew: a page skewed 3° comes out straight, its page size kept, and read', async () => {
    const skewed = await textImage({ lines: ENGLISH, height: 700, skew: 3 });
    const pdf = await scannedPdf([skewed]);
    const res = await searchable({ deskew: 'true' }, pdf);
    const out = ok(res);
    const [page, angle] = String(res.headers['x-ocr-deskewed-pages']).split(':');
    expect(page).toBe('1');
    expect(Math.abs(Number(angle) - 3)).toBeLessThan(0.6);
    const before = execFileSync('pdfinfo', [saveBody(pdf)])
      .toString()
      .match(/Page size:.*/)![0];
    expect(
      execFileSync('pdfinfo', [out])
        .toString()
        .match(/Page size:.*/)![0],
    ).toBe(before);
    const left = estimateSkew(await greyOf(sharp(await rendered(out)), 1600));
    expect(Math.abs(left)).toBeLessThan(0.5);
    expect(Math.abs(estimateSkew(await greyOf(sharp(await rendered(saveBody(pdf))), 1600)))).toBeGreaterThan(2);
    expect(normalise(textOf(out))).toContain(normalise(ENGLISH[1]!));
  });

  it('skip-text (default) leaves a text page’s content bytes unchanged; force rasterises it and reads it', async () => {
    const pdf = await mixedPdf();
    const res = await searchable({}, pdf);
    const out = readFileSync(ok(res));
    expect(res.headers['x-ocr-skipped-pages']).toBe('1');
    expect((await contentBytes(out, 1)).equals(await contentBytes(pdf, 1))).toBe(true);
    expect(normalise(textOf(saveBody(out)))).toContain(normalise(ENGLISH[0]!));

    const forced = ok(await searchable({ mode: 'force' }, pdf));
    // Page 1 is now an image with the recognised text over it.
    const images = execFileSync('pdfimages', ['-list', '-f', '1', '-l', '1', forced]).toString();
    expect(images.split('\n').filter((l) => /^\s+1\s/.test(l)).length).toBeGreaterThanOrEqual(1);
    const fonts = execFileSync('pdffonts', ['-f', '1', '-l', '1', forced]).toString();
    expect(fonts).not.toContain('Helvetica');
    expect(normalise(textOf(forced))).toContain('born digital page');
  });

  it('clean: recognition on a cleaned copy, the original (noisy) image kept in the output', async () => {
    const noisy = await textImage({ lines: ENGLISH, noise: 0.03 });
    const out = ok(await searchable({ clean: 'true' }, noisy, 'noisy.png'));
    expect(normalise(textOf(out))).toContain('quick brown fox');
    const dir = mkdtempSync(path.join(os.tmpdir(), 'docflow-ocr-clean-'));
    execFileSync('pdfimages', ['-png', out, path.join(dir, 'img')]);
    const grey = (img: Sharp) => img.greyscale().raw().toBuffer();
    const kept = await grey(sharp(path.join(dir, readdirSync(dir)[0]!)));
    const original = await grey(sharp(noisy));
    const cleaned = await grey(sharp(noisy).greyscale().median(3).normalise());
    const distance = (a: Buffer, b: Buffer) => {
      expect(a.length).toBe(b.length);
      let d = 0;
      for (let i = 0; i < a.length; i++) d += Math.abs(a[i]! - b[i]!);
      return d / a.length;
    };
    // The page's image is the upload's, specks and all (its encoding in the PDF may shift a few levels), not the
    // cleaned copy the recognition read.
    expect(distance(kept, original)).toBeLessThan(distance(kept, cleaned) / 3);
  });

  it('sidecar: a ZIP of the PDF and its text, pages separated by form feeds', async () => {
    const pdf = await mixedPdf();
    const res = await searchable({ sidecar: 'true' }, pdf);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    expect(res.headers['content-type']).toMatch(/application\/zip/);
    const { dir, names } = unzip(res.rawPayload);
    expect([...names].sort()).toEqual(['scan-searchable.pdf', 'scan-searchable.txt']);
    const pages = readFileSync(path.join(dir, 'scan-searchable.txt'), 'utf8').split('\f');
    expect(pages).toHaveLength(2);
    expect(pages[0]).toContain('[OCR skipped on page 1]');
    expect(normalise(pages[1]!)).toBe(normalise(ENGLISH.join(' ')));
    expect(normalise(textOf(path.join(dir, 'scan-searchable.pdf')))).toContain('quick brown fox');
  });

  it('outputType pdfa declares PDF/A-2b in its XMP; optimize 3 never makes the file larger', async () => {
    const pdf = await scannedPdf([upright]);
    const a = ok(await searchable({ outputType: 'pdfa' }, pdf));
    const meta = execFileSync('pdfinfo', ['-meta', a]).toString();
    expect(meta).toMatch(/pdfaid:part(>|=['"])2/);
    expect(normalise(textOf(a))).toContain('quick brown fox');
    const plain = readFileSync(ok(await searchable({ mode: 'force' }, pdf)));
    const small = readFileSync(ok(await searchable({ mode: 'force', optimize: '3' }, pdf)));
    expect(small.length).toBeLessThanOrEqual(plain.length);
    expect(normalise(textOf(saveBody(small)))).toContain('quick brown fox');
  });

  it('422 on an unknown mode or an optimize level out of range', async () => {
    const pdf = await scannedPdf([upright]);
    for (const fields of [{ mode: 'sometimes' }, { optimize: '4' }] as Array<Record<string, string>>) {
      const res = await searchable(fields, pdf);
      expect(res.statusCode).toBe(422);
      expect(res.json()).toMatchObject({ code: 'INVALID_INPUT' });
    }
  });
});
