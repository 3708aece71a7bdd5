import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { degrees, PDFDocument, PDFName, rgb, StandardFonts } from 'pdf-lib';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { renderScanPages } from '../../src/core/modules/pdf-scan/scan-pages';
import { PdfWriter } from '../fixtures/pdf-structures';
import { textImage } from '../routes/ocr/ocr-images';

const dir = mkdtempSync(path.join(os.tmpdir(), 'docflow-scan-render-'));
let n = 0;
const file = (bytes: Uint8Array) => {
  const f = path.join(dir, `in-${++n}.pdf`);
  writeFileSync(f, bytes);
  return f;
};
const outDir = () => mkdtempSync(path.join(dir, 'out-'));

/** A one-page scan: the image laid over the whole page at `dpi`, as scanners and pdf-lib's drawImage write it. */
async function scan(
  image: Buffer,
  kind: 'png' | 'jpg',
  o: { dpi?: number; edit?: (doc: PDFDocument) => Promise<void> | void } = {},
) {
  const doc = await PDFDocument.create();
  const img = kind === 'png' ? await doc.embedPng(image) : await doc.embedJpg(image);
  const dpi = o.dpi ?? 300;
  const page = doc.addPage([(img.width * 72) / dpi, (img.height * 72) / dpi]);
  page.drawImage(img, { x: 0, y: 0, width: page.getWidth(), height: page.getHeight() });
  await o.edit?.(doc);
  return file(await doc.save());
}

/**
 * A one-page scan whose image data is a PNG's own compressed rows, with their PNG filters (/Predictor 15), as
 * img2pdf and some scanners write them; pdf-lib re-encodes without.
 */
async function predictorScan(png: Buffer): Promise<string> {
  const { width, height, channels } = await sharp(png).metadata();
  const idat: Buffer[] = [];
  for (let at = 8; at < png.length;) {
    const len = png.readUInt32BE(at);
    if (png.toString('latin1', at + 4, at + 8) === 'IDAT') idat.push(png.subarray(at + 8, at + 8 + len));
    at += 12 + len;
  }
  const [w, h] = [(width! * 72) / 300, (height! * 72) / 300];
  const pdf = new PdfWriter();
  pdf.object(1, '<< /Type /Catalog /Pages 2 0 R >>');
  pdf.object(2, '<< /Type /Pages /Kids [3 0 R] /Count 1 >>');
  pdf.object(
    3,
    `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${w} ${h}] /Resources << /XObject << /Im0 5 0 R >> >> /Contents 4 0 R >>`,
  );
  pdf.stream(4, '', Buffer.from(`q ${w} 0 0 ${h} 0 0 cm /Im0 Do Q`));
  pdf.stream(
    5,
    `/Type /XObject /Subtype /Image /Width ${width} /Height ${height} /ColorSpace /Device${channels === 1 ? 'Gray' : 'RGB'} /BitsPerComponent 8 /Filter /FlateDecode /DecodeParms << /Predictor 15 /Colors ${channels} /BitsPerComponent 8 /Columns ${width} >>`,
    Buffer.concat(idat),
  );
  pdf.xrefTable([1, 2, 3, 4, 5], '<< /Size 6 /Root 1 0 R >>');
  return file(pdf.bytes());
}

/** The pixels of a PGM file. */
function pgm(f: string): { width: number; height: number; pixels: Buffer } {
  const buf = readFileSync(f);
  const m = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(buf.subarray(0, 40).toString('latin1'));
  if (!m) throw new Error(`${f} is not an 8-bit PGM`);
  const width = Number(m[1]);
  const height = Number(m[2]);
  return { width, height, pixels: buf.subarray(buf.length - width * height) };
}

const page = await textImage({ lines: ['Scanned pages are read', 'from their own pixels'], width: 1240, height: 600 });
const grayPng = await sharp(page).grayscale().png().toBuffer();
const rgbPng = await sharp(page).tint('#d0b090').removeAlpha().png().toBuffer();
const grayJpeg = await sharp(page).grayscale().jpeg({ quality: 90 }).toBuffer();

const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: { code?: string }) => e.code,
  );

describe('pdf-scan render: a scanned page is its image, not a rendering', () => {
  it('a gray scan gives the image’s own pixels, exactly: Flate as pdf-lib writes it, and a PNG’s own rows', async () => {
    const want = await sharp(grayPng).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
    for (const f of [await scan(grayPng, 'png'), await predictorScan(grayPng)]) {
      const [out] = await renderScanPages(f, outDir(), { format: 'pgm', dpi: 300, pages: [1] });
      const got = pgm(out!.path);
      expect([got.width, got.height]).toEqual([want.info.width, want.info.height]);
      expect(got.pixels.equals(want.data)).toBe(true);
    }
  });

  it('a gray JPEG scan (DCT) gives the decoded JPEG, exactly', async () => {
    const [out] = await renderScanPages(await scan(grayJpeg, 'jpg'), outDir(), {
      format: 'pgm',
      dpi: 300,
      pages: [1],
    });
    const want = await sharp(grayJpeg).extractChannel(0).raw().toBuffer();
    expect(pgm(out!.path).pixels.equals(want)).toBe(true);
  });

  it('an RGB scan is made gray as pdftoppm makes it (within its resampling blur), Flate with or without predictor', async () => {
    const withPredictor = await predictorScan(rgbPng);
    const plain = await scan(rgbPng, 'png');
    expect(readFileSync(withPredictor).toString('latin1')).toMatch(/\/Predictor 15/);
    expect(readFileSync(plain).toString('latin1')).not.toMatch(/\/Predictor/);
    const [a] = await renderScanPages(withPredictor, outDir(), { format: 'pgm', dpi: 300, pages: [1] });
    const [b] = await renderScanPages(plain, outDir(), { format: 'pgm', dpi: 300, pages: [1] });
    expect(pgm(b!.path).pixels.equals(pgm(a!.path).pixels)).toBe(true);

    const poppler = path.join(outDir(), 'p');
    execFileSync('pdftoppm', ['-gray', '-r', '300', withPredictor, poppler]);
    const rendered = pgm(`${poppler}-1.pgm`);
    const ours = pgm(a!.path);
    expect([ours.width, ours.height]).toEqual([rendered.width, rendered.height]);
    let diff = 0;
    for (let i = 0; i < ours.pixels.length; i++) diff += Math.abs(ours.pixels[i]! - rendered.pixels[i]!);
    expect(diff / ours.pixels.length).toBeLessThan(8);
    // Not all white: the tint made the paper mid-light and the text dark.
    expect(ours.pixels.reduce((m, v) => Math.min(m, v), 255)).toBeLessThan(60);
  });

  it('several pages, in the order asked', async () => {
    const doc = await PDFDocument.create();
    for (const png of [grayPng, rgbPng]) {
      const img = await doc.embedPng(png);
      const p = doc.addPage([(img.width * 72) / 300, (img.height * 72) / 300]);
      p.drawImage(img, { x: 0, y: 0, width: p.getWidth(), height: p.getHeight() });
    }
    const out = await renderScanPages(file(await doc.save()), outDir(), { format: 'pgm', dpi: 300, pages: [2, 1] });
    expect(out.map((o) => o.page)).toEqual([2, 1]);
  });

  it('declines (UNSUPPORTED_OPERATION: the renderers after it draw the page) whatever is not a plain scan', async () => {
    const ask = (f: string, o: { dpi?: number; format?: string } = {}) =>
      codeOf(renderScanPages(f, outDir(), { format: o.format ?? 'pgm', dpi: o.dpi ?? 300, pages: [1] }));
    // Another format, another resolution than the image's.
    expect(await ask(await scan(grayPng, 'png'), { format: 'png' })).toBe('UNSUPPORTED_OPERATION');
    expect(await ask(await scan(grayPng, 'png'), { dpi: 150 })).toBe('UNSUPPORTED_OPERATION');
    // Text drawn beside the image (an OCR-ed page, a stamp).
    const withText = await scan(grayPng, 'png', {
      edit: async (doc) => {
        const font = await doc.embedFont(StandardFonts.Helvetica);
        doc.getPage(0).drawText('stamp', { x: 10, y: 10, size: 12, font, color: rgb(1, 0, 0) });
      },
    });
    expect(await ask(withText)).toBe('UNSUPPORTED_OPERATION');
    // A turned page, a cropped one, an annotated one.
    expect(await ask(await scan(grayPng, 'png', { edit: (d) => void d.getPage(0).setRotation(degrees(90)) }))).toBe(
      'UNSUPPORTED_OPERATION',
    );
    expect(await ask(await scan(grayPng, 'png', { edit: (d) => d.getPage(0).setCropBox(0, 0, 100, 100) }))).toBe(
      'UNSUPPORTED_OPERATION',
    );
    const annotated = await scan(grayPng, 'png', {
      edit: (d) => {
        const note = d.context.obj({ Type: 'Annot', Subtype: 'Text', Rect: [10, 10, 30, 30], Contents: 'x' });
        d.getPage(0).node.set(PDFName.of('Annots'), d.context.obj([d.context.register(note)]));
      },
    });
    expect(await ask(annotated)).toBe('UNSUPPORTED_OPERATION');
    // An image with transparency (its soft mask), an image not covering the page.
    const alpha = await sharp(page).ensureAlpha(0.5).png().toBuffer();
    expect(await ask(await scan(alpha, 'png'))).toBe('UNSUPPORTED_OPERATION');
    const doc = await PDFDocument.create();
    const img = await doc.embedPng(grayPng);
    const p = doc.addPage([(img.width * 72) / 300 + 20, (img.height * 72) / 300]);
    p.drawImage(img, { x: 20, y: 0, width: p.getWidth() - 20, height: p.getHeight() });
    expect(await ask(file(await doc.save()))).toBe('UNSUPPORTED_OPERATION');
    // Not a PDF the scan can read.
    expect(await ask(file(Buffer.from('%PDF-1.4\nnot really')))).toBe('UNSUPPORTED_OPERATION');
  });
});
