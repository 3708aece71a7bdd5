import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { deflateSync, gzipSync } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineError } from '../../src/core/errors';
import type { ImagesToPdfOptions } from '../../src/core/operations/convert/interfaces';
import { Limiter } from '../../src/core/limiter';
import { imagesModule } from '../../src/core/modules/images/index';
import { sanitizeSvg } from '../../src/core/modules/images/svg-sanitize';
import { createToolRunner } from '../../src/core/run-tool';
import { testDocument } from '../fixtures/documents';

/** Images to PDF, read back with poppler: page sizes, embedded image streams, and rendered pixel colours. */

const dir = mkdtempSync(path.join(os.tmpdir(), 'docflow-images-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const makeEngine = (env: Record<string, string> = {}, limiter = new Limiter({ concurrency: 2, queueSize: 10 })) =>
  imagesModule.create(imagesModule.configSchema.parse(env), {
    tools: createToolRunner({ limiter, timeoutMs: 30_000 }),
    maxOutputBytes: 64 << 20,
  });
const engine = makeEngine();

let n = 0;
const file = (name: string, data: Buffer | string) => {
  const p = path.join(dir, `${++n}-${name}`);
  writeFileSync(p, data);
  return p;
};

const A4: ImagesToPdfOptions = { pageSize: 'A4', orientation: 'portrait', margin: 0 };

async function convert(inputs: string[], opts: Partial<ImagesToPdfOptions> = {}, signal?: AbortSignal, e = engine) {
  const out = path.join(dir, `${++n}-out.pdf`);
  const r = await e.imagesToPdf!(inputs, out, { ...A4, ...opts }, { scratch: dir, signal });
  return { out, pages: r.pages };
}

async function failure(p: Promise<unknown>): Promise<EngineError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(EngineError);
  return err as EngineError;
}

// ------------------------------------------------------------------ reading PDFs back

const tool = (cmd: string, args: string[]) => execFileSync(cmd, args, { encoding: 'latin1', maxBuffer: 64 << 20 });

function pdfInfo(pdf: string) {
  const text = tool('pdfinfo', ['-f', '1', '-l', '1000', pdf]);
  const pages = Number(/^Pages:\s+(\d+)/m.exec(text)?.[1]);
  const sizes = [...text.matchAll(/^Page\s+\d+ size:\s+([\d.]+) x ([\d.]+) pts/gm)].map((m): [number, number] => [
    Number(m[1]),
    Number(m[2]),
  ]);
  const producer = /^Producer:\s+(.*)$/m.exec(text)?.[1];
  return { pages, sizes, producer };
}

interface ImageRow {
  page: number;
  width: number;
  height: number;
  color: string;
  enc: string;
}
function pdfImages(pdf: string): ImageRow[] {
  return tool('pdfimages', ['-list', pdf])
    .split('\n')
    .slice(2)
    .filter((l) => l.trim())
    .map((l) => {
      const c = l.trim().split(/\s+/);
      return { page: Number(c[0]), width: Number(c[3]), height: Number(c[4]), color: c[5]!, enc: c[8]! };
    });
}

/** Page `page` rendered at 72 dpi (1 px = 1 pt). */
async function renderPage(pdf: string, page = 1) {
  const root = path.join(dir, `${++n}-page`);
  execFileSync('pdftoppm', ['-r', '72', '-f', String(page), '-l', String(page), '-png', '-singlefile', pdf, root]);
  const { data, info } = await sharp(readFileSync(`${root}.png`))
    .removeAlpha()
    .raw()
    .toBuffer({ resolveWithObject: true });
  /** The colour at (x, y) in PDF points from the bottom-left corner. */
  return (x: number, y: number): [number, number, number] => {
    const px = Math.min(info.width - 1, Math.max(0, Math.floor(x)));
    const py = Math.min(info.height - 1, Math.max(0, Math.floor(info.height - y)));
    const i = (py * info.width + px) * info.channels;
    return [data[i]!, data[i + 1]!, data[i + 2]!];
  };
}

const near = (got: [number, number, number], want: [number, number, number], tol = 40) =>
  got.every((v, i) => Math.abs(v - want[i]!) <= tol) ? want : got;
const RED: [number, number, number] = [255, 0, 0];
const GREEN: [number, number, number] = [0, 255, 0];
const BLUE: [number, number, number] = [0, 0, 255];
const WHITE: [number, number, number] = [255, 255, 255];
const BLACK: [number, number, number] = [0, 0, 0];

// ------------------------------------------------------------------ making images

const solid = (
  w: number,
  h: number,
  color: string | { r: number; g: number; b: number; alpha?: number },
  channels: 3 | 4 = 3,
) => sharp({ create: { width: w, height: h, channels, background: color } });

/** Random pixels: incompressible, slow enough to decode for abort and queue tests. */
const noise = (w: number, h: number, sigma: number) =>
  sharp({
    create: { width: w, height: h, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma } },
  });

/** Left half `left`, right half `right` (to see orientation and mirroring). */
const halves = (w: number, h: number, left: string, right: string) =>
  solid(w, h, left).composite([
    {
      input: { create: { width: Math.floor(w / 2), height: h, channels: 3, background: right } },
      left: Math.ceil(w / 2),
      top: 0,
    },
  ]);

/** A text line rendered from SVG, so pixel checks can find dark glyphs on white. */
const textPng = () =>
  sharp(
    Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="100"><rect width="400" height="100" fill="white"/><text x="10" y="70" font-size="60" font-family="sans-serif" fill="black">DocFlow</text></svg>',
    ),
  )
    .png()
    .toBuffer();

/** A minimal BMP writer (test side): 24-bit, 8-bit paletted or 32-bit BI_BITFIELDS with alpha. */
function bmp(
  w: number,
  h: number,
  pixel: (x: number, y: number) => [number, number, number, number?],
  bpp: 8 | 24 | 32,
): Buffer {
  const palette: Array<[number, number, number]> = [];
  const stride = Math.floor((bpp * w + 31) / 32) * 4;
  const headerSize = bpp === 32 ? 108 : 40;
  const paletteSize = bpp === 8 ? 256 * 4 : 0;
  const offset = 14 + headerSize + paletteSize;
  const buf = Buffer.alloc(offset + stride * h);
  buf.write('BM', 0, 'latin1');
  buf.writeUInt32LE(buf.length, 2);
  buf.writeUInt32LE(offset, 10);
  buf.writeUInt32LE(headerSize, 14);
  buf.writeInt32LE(w, 18);
  buf.writeInt32LE(h, 22);
  buf.writeUInt16LE(1, 26);
  buf.writeUInt16LE(bpp, 28);
  buf.writeUInt32LE(bpp === 32 ? 3 : 0, 30);
  buf.writeInt32LE(3780, 38); // 96 dpi
  buf.writeInt32LE(3780, 42);
  if (bpp === 32) {
    buf.writeUInt32LE(0x00ff0000, 54);
    buf.writeUInt32LE(0x0000ff00, 58);
    buf.writeUInt32LE(0x000000ff, 62);
    buf.writeUInt32LE(0xff000000, 66);
  }
  for (let y = 0; y < h; y++) {
    const row = offset + (h - 1 - y) * stride;
    for (let x = 0; x < w; x++) {
      const [r, g, b, a = 255] = pixel(x, y);
      if (bpp === 8) {
        let idx = palette.findIndex((p) => p[0] === r && p[1] === g && p[2] === b);
        if (idx < 0) idx = palette.push([r, g, b]) - 1;
        buf[row + x] = idx;
      } else if (bpp === 24) {
        buf[row + x * 3] = b;
        buf[row + x * 3 + 1] = g;
        buf[row + x * 3 + 2] = r;
      } else buf.writeUInt32LE(((a << 24) | (r << 16) | (g << 8) | b) >>> 0, row + x * 4);
    }
  }
  palette.forEach(([r, g, b], i) => {
    const at = 14 + headerSize + i * 4;
    buf[at] = b;
    buf[at + 1] = g;
    buf[at + 2] = r;
  });
  return buf;
}

/** A JPEG with an APP1 EXIF segment holding only the Orientation tag, inserted after SOI. */
function withExifOrientation(jpeg: Buffer, o: number): Buffer {
  const tiff = Buffer.alloc(26);
  tiff.write('II*\0', 0, 'latin1');
  tiff.writeUInt32LE(8, 4);
  tiff.writeUInt16LE(1, 8);
  tiff.writeUInt16LE(0x0112, 10);
  tiff.writeUInt16LE(3, 12);
  tiff.writeUInt32LE(1, 14);
  tiff.writeUInt16LE(o, 18);
  tiff.writeUInt32LE(0, 22);
  const body = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
  const head = Buffer.from([0xff, 0xe1, 0, 0]);
  head.writeUInt16BE(body.length + 2, 2);
  return Buffer.concat([jpeg.subarray(0, 2), head, body, jpeg.subarray(2)]);
}

function crc32(b: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of b) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = crc & 1 ? 0xedb88320 ^ (crc >>> 1) : crc >>> 1;
  }
  return (crc ^ 0xffffffff) >>> 0;
}
function pngChunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}
/** A PNG's IDAT data, concatenated. */
function idat(png: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let at = 8; at < png.length; at += 12 + png.readUInt32BE(at)) {
    if (png.toString('latin1', at + 4, at + 8) === 'IDAT')
      parts.push(png.subarray(at + 8, at + 8 + png.readUInt32BE(at)));
  }
  return Buffer.concat(parts);
}

/** A tiny PNG whose header claims `w`×`h`. */
function bombPng(w: number, h: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(w, 0);
  ihdr.writeUInt32BE(h, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', deflateSync(Buffer.alloc(4))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

// ------------------------------------------------------------------ tests

describe('JPEG', () => {
  it('embeds a baseline RGB JPEG byte for byte (a DCT stream, not re-encoded), centred and shrunk to fit A4', async () => {
    const jpg = await solid(1200, 900, '#ff0000').jpeg({ quality: 90 }).toBuffer();
    const { out, pages } = await convert([file('red.jpg', jpg)]);
    expect(pages).toBe(1);
    const info = pdfInfo(out);
    expect(info.sizes[0]).toEqual([595.28, 841.89]);
    expect(info.producer).toBe('DocFlow');
    expect(pdfImages(out)).toEqual([{ page: 1, width: 1200, height: 900, color: 'rgb', enc: 'jpeg' }]);
    const root = path.join(dir, `${++n}-x`);
    execFileSync('pdfimages', ['-j', out, root]);
    expect(readFileSync(`${root}-000.jpg`).equals(jpg)).toBe(true);
    // 1200×900 px at 96 dpi is 900×675 pt: shrunk to the page width (595.28), height 446.46, centred vertically.
    const px = await renderPage(out);
    expect(near(px(297, 421), RED)).toEqual(RED);
    expect(near(px(297, 421 + 446.46 / 2 - 4), RED)).toEqual(RED);
    expect(near(px(297, 421 + 446.46 / 2 + 4), WHITE)).toEqual(WHITE);
    expect(near(px(2, 421), RED)).toEqual(RED);
    expect(tool('qpdf', ['--check', out])).toMatch(/No syntax or stream encoding errors/);
  });

  it('embeds progressive and greyscale JPEGs as they are', async () => {
    const prog = await solid(300, 200, '#0000ff').jpeg({ progressive: true }).toBuffer();
    const grey = await solid(300, 200, '#808080').toColourspace('b-w').jpeg().toBuffer();
    const { out, pages } = await convert([file('p.jpg', prog), file('g.jpg', grey)]);
    expect(pages).toBe(2);
    expect(pdfImages(out).map((r) => [r.color, r.enc])).toEqual([
      ['rgb', 'jpeg'],
      ['gray', 'jpeg'],
    ]);
    const root = path.join(dir, `${++n}-x`);
    execFileSync('pdfimages', ['-j', out, root]);
    expect(readFileSync(`${root}-000.jpg`).equals(prog)).toBe(true);
    expect(readFileSync(`${root}-001.jpg`).equals(grey)).toBe(true);
    expect(near((await renderPage(out, 2))(297, 421), [128, 128, 128], 12)).toEqual([128, 128, 128]);
  });

  it('converts a CMYK JPEG to RGB (viewers draw raw CMYK JPEGs inconsistently)', async () => {
    const cmyk = await solid(300, 200, '#ff0000').toColourspace('cmyk').jpeg().toBuffer();
    expect((await sharp(cmyk).metadata()).space).toBe('cmyk');
    const { out } = await convert([file('cmyk.jpg', cmyk)]);
    const [img] = pdfImages(out);
    expect(img).toMatchObject({ width: 300, height: 200, color: 'rgb', enc: 'image' });
    const [r, g, b] = (await renderPage(out))(297, 421);
    expect(r).toBeGreaterThan(200);
    expect(g).toBeLessThan(80);
    expect(b).toBeLessThan(80);
  });

  it('honours the resolution a JPEG states (300 dpi: 600×300 px is 144×72 pt with pageSize fit)', async () => {
    const jpg = await solid(600, 300, '#00ff00').withMetadata({ density: 300 }).jpeg().toBuffer();
    const { out } = await convert([file('dpi.jpg', jpg)], { pageSize: 'fit' });
    expect(pdfInfo(out).sizes[0]).toEqual([144, 72]);
  });

  it('refuses a truncated JPEG and a JPEG with a broken header', async () => {
    const jpg = await noise(400, 300, 40).jpeg().toBuffer();
    const cut = await failure(convert([file('cut.jpg', jpg.subarray(0, jpg.length >> 1))]));
    expect(cut.code).toBe('INVALID_DOCUMENT');
    expect(cut.message).toMatch(/Image 1 .*truncated/);
    const broken = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x02]), Buffer.alloc(50, 0x41)]);
    expect((await failure(convert([file('broken.jpg', broken)]))).code).toBe('INVALID_DOCUMENT');
    // Corrupt entropy-coded data behind an intact header and EOI.
    const garbled = Buffer.from(jpg);
    const sos = garbled.indexOf(Buffer.from([0xff, 0xda]));
    for (let i = sos + 20; i < garbled.length - 10; i += 7) garbled[i] = 0xff;
    expect((await failure(convert([file('garbled.jpg', garbled)]))).code).toBe('INVALID_DOCUMENT');
  });
});

describe('EXIF orientation', () => {
  // Stored 200×100: left half red, right half blue. Orientation 6 shows it turned 90° clockwise: 100×200, red on top.
  const stored = () => halves(200, 100, '#ff0000', '#0000ff');

  it('turns an embedded JPEG with the drawing matrix, without decoding it (6: 90° clockwise)', async () => {
    const jpg = await stored().withMetadata({ orientation: 6 }).jpeg().toBuffer();
    const { out } = await convert([file('o6.jpg', jpg)], { pageSize: 'fit' });
    expect(pdfInfo(out).sizes[0]).toEqual([75, 150]);
    expect(pdfImages(out)[0]).toMatchObject({ width: 200, height: 100, enc: 'jpeg' });
    const px = await renderPage(out);
    expect(near(px(37, 140), RED)).toEqual(RED);
    expect(near(px(37, 10), BLUE)).toEqual(BLUE);
  });

  it.each([
    [3, 'blue left, red right', BLUE, RED],
    [2, 'mirrored: blue left', BLUE, RED],
    [1, 'as stored', RED, BLUE],
  ])('orientation %i (%s)', async (o, _what, left, right) => {
    const jpg = await stored().withMetadata({ orientation: o }).jpeg().toBuffer();
    const { out } = await convert([file(`o${o}.jpg`, jpg)], { pageSize: 'fit' });
    expect(pdfInfo(out).sizes[0]).toEqual([150, 75]);
    const px = await renderPage(out);
    expect(near(px(20, 37), left)).toEqual(left);
    expect(near(px(130, 37), right)).toEqual(right);
  });

  it('orientation 8 (90° counter-clockwise): red at the bottom', async () => {
    const jpg = await stored().withMetadata({ orientation: 8 }).jpeg().toBuffer();
    const { out } = await convert([file('o8.jpg', jpg)], { pageSize: 'fit' });
    const px = await renderPage(out);
    expect(near(px(37, 10), RED)).toEqual(RED);
    expect(near(px(37, 140), BLUE)).toEqual(BLUE);
  });

  it('turns decoded images too (a CMYK JPEG and a TIFF with orientation 6)', async () => {
    // withMetadata() would convert to sRGB: the EXIF segment goes into the CMYK file by hand.
    const cmyk = withExifOrientation(await stored().toColourspace('cmyk').jpeg().toBuffer(), 6);
    expect(await sharp(cmyk).metadata()).toMatchObject({ space: 'cmyk', orientation: 6 });
    const tif = await stored().withMetadata({ orientation: 6 }).tiff().toBuffer();
    const { out } = await convert([file('o6c.jpg', cmyk), file('o6.tif', tif)], { pageSize: 'fit' });
    expect(pdfInfo(out).sizes).toEqual([
      [75, 150],
      [75, 150],
    ]);
    for (const page of [1, 2]) {
      const px = await renderPage(out, page);
      const [r1, , b1] = px(37, 140);
      const [r2, , b2] = px(37, 10);
      // CMYK's blue comes back as a dull (28, 60, 139): compare hues, not exact values.
      expect(r1 - b1).toBeGreaterThan(100);
      expect(b2 - r2).toBeGreaterThan(80);
    }
  });
});

describe('PNG, GIF, WebP, TIFF, BMP, AVIF', () => {
  it('PNG: RGB, transparency (flattened onto white), 16-bit, interlaced, paletted and grey', async () => {
    const rgb = await solid(200, 100, '#00ff00').png().toBuffer();
    // Left half opaque blue, right half fully transparent.
    const rgba = Buffer.alloc(200 * 100 * 4);
    for (let i = 0; i < 200 * 100; i++) if (i % 200 < 100) rgba.set([0, 0, 255, 255], i * 4);
    const alpha = await sharp(rgba, { raw: { width: 200, height: 100, channels: 4 } })
      .png()
      .toBuffer();
    const deep = await solid(200, 100, '#ff0000').toColourspace('rgb16').png().toBuffer();
    const interlaced = await solid(200, 100, '#0000ff').png({ progressive: true }).toBuffer();
    const palette = await halves(200, 100, '#ff0000', '#00ff00').png({ palette: true }).toBuffer();
    const grey16 = await solid(200, 100, '#404040').toColourspace('grey16').png().toBuffer();
    expect((await sharp(deep).metadata()).bitsPerSample).toBe(16);
    expect((await sharp(interlaced).metadata()).isProgressive).toBe(true);
    expect((await sharp(palette).metadata()).isPalette).toBe(true);
    expect((await sharp(grey16).metadata()).depth).toBe('ushort');
    const { out, pages } = await convert(
      [
        file('a.png', rgb),
        file('b.png', alpha),
        file('c.png', deep),
        file('d.png', interlaced),
        file('e.png', palette),
        file('f.png', grey16),
      ],
      { pageSize: 'fit' },
    );
    expect(pages).toBe(6);
    expect(pdfInfo(out).sizes.every(([w, h]) => w === 150 && h === 75)).toBe(true);
    const imgs = pdfImages(out);
    expect(imgs.map((i) => [i.width, i.height, i.enc])).toEqual(Array(6).fill([200, 100, 'image']));
    expect(imgs.map((i) => i.color)).toEqual(['rgb', 'rgb', 'rgb', 'rgb', 'rgb', 'gray']);
    const at = async (page: number, x: number) => (await renderPage(out, page))(x, 37);
    expect(near(await at(1, 75), GREEN)).toEqual(GREEN);
    expect(near(await at(2, 30), BLUE)).toEqual(BLUE);
    expect(near(await at(2, 120), WHITE)).toEqual(WHITE);
    expect(near(await at(3, 75), RED)).toEqual(RED);
    expect(near(await at(4, 75), BLUE)).toEqual(BLUE);
    expect(near(await at(5, 30), RED)).toEqual(RED);
    expect(near(await at(5, 120), GREEN)).toEqual(GREEN);
    expect(near(await at(6, 75), [64, 64, 64], 10)).toEqual([64, 64, 64]);
  });

  it("an 8-bit RGB or grey PNG's compressed rows are copied into the PDF, not re-encoded; a corrupt one is refused", async () => {
    const png = await halves(300, 200, '#ff0000', '#00ff00').removeAlpha().png().toBuffer();
    const grey = await textPng().then((b) =>
      sharp(b).flatten({ background: '#fff' }).toColourspace('b-w').png().toBuffer(),
    );
    expect(await sharp(grey).metadata()).toMatchObject({ channels: 1, hasAlpha: false });
    const { out } = await convert([file('rgb.png', png), file('grey.png', grey)], { pageSize: 'fit' });
    const pdf = readFileSync(out);
    expect(pdf.includes(idat(png))).toBe(true);
    expect(pdf.includes(idat(grey))).toBe(true);
    expect(pdfImages(out).map((i) => i.color)).toEqual(['rgb', 'gray']);
    const px = await renderPage(out);
    expect(near(px(20, 75), RED)).toEqual(RED);
    expect(near(px(200, 75), GREEN)).toEqual(GREEN);
    const bad = Buffer.from(png);
    const at = bad.indexOf('IDAT', 0, 'latin1') + 20;
    for (let i = at; i < at + 40; i++) bad[i] = bad[i]! ^ 0x5a;
    const e = await failure(convert([file('bad.png', bad)]));
    expect(e.code).toBe('INVALID_DOCUMENT');
  });

  it('PNG with text stays legible: dark glyph pixels where the text is, white around it', async () => {
    const { out } = await convert([file('text.png', await textPng())], { pageSize: 'fit' });
    expect(pdfInfo(out).sizes[0]).toEqual([300, 75]);
    const px = await renderPage(out);
    let dark = 0;
    for (let x = 5; x < 295; x++) for (let y = 20; y < 60; y++) if (px(x, y)[0] < 80) dark++;
    expect(dark).toBeGreaterThan(500);
    expect(px(295, 5)).toEqual(WHITE);
  });

  it('an RGBA PNG that is not square', async () => {
    const src = await testDocument('watermark.png');
    const m = await sharp(src).metadata();
    const { out } = await convert([src], { pageSize: 'fit' });
    expect(pdfImages(out)[0]).toMatchObject({ width: m.width, height: m.height });
    const [w, h] = pdfInfo(out).sizes[0]!;
    expect(w / h).toBeCloseTo(m.width / m.height, 2);
  });

  it('GIF: the first frame of an animation is one page', async () => {
    const frames = await Promise.all(['#ff0000', '#00ff00', '#0000ff'].map((c) => solid(80, 60, c).png().toBuffer()));
    const gif = await sharp(frames, { join: { animated: true } })
      .gif()
      .toBuffer();
    expect((await sharp(gif).metadata()).pages).toBe(3);
    const { out, pages } = await convert([file('anim.gif', gif)], { pageSize: 'fit' });
    expect(pages).toBe(1);
    expect(pdfImages(out)[0]).toMatchObject({ width: 80, height: 60 });
    expect(near((await renderPage(out))(30, 22), RED)).toEqual(RED);
  });

  it('WebP and AVIF', async () => {
    const webp = await solid(120, 80, '#00ff00').webp({ lossless: true }).toBuffer();
    const avif = await solid(120, 80, '#0000ff').avif().toBuffer();
    const { out, pages } = await convert([file('a.webp', webp), file('b.avif', avif)], { pageSize: 'fit' });
    expect(pages).toBe(2);
    expect(near((await renderPage(out, 1))(45, 30), GREEN)).toEqual(GREEN);
    expect(near((await renderPage(out, 2))(45, 30), BLUE)).toEqual(BLUE);
  });

  it('multi-page TIFF: every page becomes a PDF page, in order, each its own size', async () => {
    const pages = await Promise.all(['#ff0000', '#00ff00', '#0000ff'].map((c) => solid(96, 48, c).png().toBuffer()));
    const tif = await sharp(pages, { join: { animated: true } })
      .tiff()
      .toBuffer();
    expect((await sharp(tif).metadata()).pages).toBe(3);
    const { out, pages: count } = await convert([file('three.tif', tif)], { pageSize: 'fit', margin: 10 });
    expect(count).toBe(3);
    expect(pdfInfo(out).sizes).toEqual(Array(3).fill([92, 56]));
    const colours = [RED, GREEN, BLUE];
    for (const p of [1, 2, 3]) {
      const px = await renderPage(out, p);
      expect(near(px(46, 28), colours[p - 1]!)).toEqual(colours[p - 1]);
      expect(px(4, 4)).toEqual(WHITE);
    }
  });

  it('BMP: 24-bit, 8-bit paletted and 32-bit with alpha, decoded in-process (libvips has no BMP loader)', async () => {
    const split = (x: number): [number, number, number] => (x < 50 ? [255, 0, 0] : [0, 0, 255]);
    const b24 = bmp(101, 40, (x) => split(x), 24);
    const b8 = bmp(101, 40, (x) => split(x), 8);
    const b32 = bmp(101, 40, (x) => (x < 50 ? [0, 255, 0, 255] : [0, 0, 0, 0]), 32);
    const { out, pages } = await convert([file('a.bmp', b24), file('b.bmp', b8), file('c.bmp', b32)], {
      pageSize: 'fit',
    });
    expect(pages).toBe(3);
    expect(pdfImages(out).map((i) => [i.width, i.height])).toEqual(Array(3).fill([101, 40]));
    for (const p of [1, 2]) {
      const px = await renderPage(out, p);
      expect(near(px(10, 15), RED)).toEqual(RED);
      expect(near(px(65, 15), BLUE)).toEqual(BLUE);
    }
    const px = await renderPage(out, 3);
    expect(near(px(10, 15), GREEN)).toEqual(GREEN);
    expect(px(65, 15)).toEqual(WHITE);
  });

  it('BMP: truncated, RLE-compressed and oversized headers are refused before decoding', async () => {
    const good = bmp(64, 64, () => [1, 2, 3], 24);
    const cut = await failure(convert([file('cut.bmp', good.subarray(0, good.length - 100))]));
    expect(cut.code).toBe('INVALID_DOCUMENT');
    const rle = Buffer.from(good);
    rle.writeUInt32LE(1, 30);
    const e = await failure(convert([file('rle.bmp', rle)]));
    expect(e.code).toBe('UNSUPPORTED_FORMAT');
    expect(e.message).toMatch(/uncompressed BMP/);
    const huge = Buffer.from(good);
    huge.writeInt32LE(60_000, 18);
    huge.writeInt32LE(60_000, 22);
    const bomb = await failure(convert([file('huge.bmp', huge)]));
    expect(bomb.code).toBe('INVALID_INPUT');
    expect(bomb.message).toMatch(/60000×60000 pixels.*100 megapixels/);
  });

  it('HEIC: a clear UNSUPPORTED_FORMAT (the prebuilt libvips has no HEVC decoder)', async () => {
    const avif = await solid(64, 64, '#ff0000').avif().toBuffer();
    const heic = Buffer.from(
      avif.toString('latin1').replaceAll('avif', 'heic').replaceAll('av01', 'hvc1').replaceAll('av1C', 'hvcC'),
      'latin1',
    );
    const e = await failure(convert([file('photo.heic', heic)]));
    expect(e.code).toBe('UNSUPPORTED_FORMAT');
    expect(e.message).toMatch(/HEIC.*JPEG or PNG/);
  });
});

describe('SVG', () => {
  const redSvg = (extra = '', attrs = 'width="200" height="100"') =>
    `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" ${attrs}><rect width="100%" height="100%" fill="#ff0000"/>${extra}</svg>`;

  it('renders at twice its size; the page is its own size (1 user unit = 1 pt, mm exact)', async () => {
    const { out } = await convert(
      [file('r.svg', redSvg()), file('a4.svg', redSvg('', 'width="210mm" height="297mm"'))],
      { pageSize: 'fit' },
    );
    const info = pdfInfo(out);
    expect(info.sizes[0]).toEqual([200, 100]);
    expect(info.sizes[1]![0]).toBeCloseTo(595.28, 0);
    expect(info.sizes[1]![1]).toBeCloseTo(841.89, 0);
    expect(pdfImages(out)[0]).toMatchObject({ width: 400, height: 200 });
    expect(near((await renderPage(out))(100, 50), RED)).toEqual(RED);
  });

  it('gzip-compressed SVG (.svgz)', async () => {
    const { out } = await convert([file('r.svgz', gzipSync(redSvg()))], { pageSize: 'fit' });
    expect(near((await renderPage(out))(100, 50), RED)).toEqual(RED);
  });

  describe('external references', () => {
    let server: Server;
    let hits: string[];
    let base: string;
    beforeAll(async () => {
      hits = [];
      server = createServer((req, res) => {
        hits.push(req.url ?? '');
        res.setHeader('content-type', req.url?.endsWith('.css') ? 'text/css' : 'image/svg+xml');
        res.end(req.url?.endsWith('.css') ? 'rect { fill: #00ff00 }' : redSvg());
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    });
    afterAll(() => new Promise<void>((r) => server.close(() => r())));

    it('never reads local files or fetches URLs; the rest of the drawing still renders', async () => {
      const png = (await solid(4, 4, '#00ff00').png().toBuffer()).toString('base64');
      const svg = `<?xml version="1.0"?>
<?xml-stylesheet type="text/css" href="${base}/pi.css"?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:xi="http://www.w3.org/2001/XInclude" width="200" height="100">
  <style>@import url(${base}/import.css); rect.b { fill: url(${base}/paint.svg#g) }</style>
  <style><![CDATA[ .c { background-image: url('file:///etc/passwd') } ]]></style>
  <rect width="200" height="100" fill="#ff0000"/>
  <image href="file:///etc/passwd" x="0" y="0" width="10" height="10"/>
  <image xlink:href="${base}/img.svg" x="10" y="0" width="10" height="10"/>
  <image xlink:href="&#102;ile:///etc/hostname" x="20" y="0" width="10" height="10"/>
  <use href="${base}/use.svg#a"/>
  <use xlink:href="/etc/passwd#x"/>
  <rect class="b" x="0" y="0" width="5" height="5" fill="url(${base}/fill.svg#p)" style="stroke: url(file:///etc/passwd)"/>
  <filter id="f"><feImage href="${base}/feimage.svg"/></filter>
  <text x="100" y="90"><xi:include href="file:///etc/passwd" parse="text"/></text>
  <xi:include href="${base}/xinclude.svg"/>
  <g xml:base="${base}/"><image href="rel.png" width="1" height="1"/></g>
  <image href="data:image/png;base64,${png}" x="150" y="0" width="40" height="40"/>
</svg>`;
      const { out } = await convert([file('evil.svg', svg)], { pageSize: 'fit' });
      expect(hits).toEqual([]);
      const pdf = readFileSync(out, 'latin1');
      expect(pdf).not.toMatch(/root:|127\.0\.0\.1|passwd/);
      expect(tool('pdftotext', [out, '-'])).not.toMatch(/root/);
      const px = await renderPage(out);
      expect(near(px(100, 50), RED)).toEqual(RED);
      // The inline data: image is kept (it cannot reach anything).
      expect(near(px(170, 80), GREEN)).toEqual(GREEN);
    });

    it('refuses external entities (XXE) outright', async () => {
      const svg = `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text>&x;</text></svg>`;
      const e = await failure(convert([file('xxe.svg', svg)]));
      expect(e.code).toBe('INVALID_INPUT');
      expect(e.message).toMatch(/external or parameter entities/);
      const remote = `<!DOCTYPE svg [<!ENTITY % p SYSTEM "${base}/dtd">%p;]><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>`;
      expect((await failure(convert([file('xxe2.svg', remote)]))).code).toBe('INVALID_INPUT');
      expect(hits).toEqual([]);
    });

    it('keeps plain internal entities (as Illustrator writes them) and the public DTD line', async () => {
      const svg = `<?xml version="1.0"?><!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "${base}/svg11.dtd" [<!ENTITY red "#ff0000">]><svg xmlns="http://www.w3.org/2000/svg" width="40" height="40"><rect width="40" height="40" fill="&red;"/></svg>`;
      const { out } = await convert([file('ai.svg', svg)], { pageSize: 'fit' });
      expect(near((await renderPage(out))(20, 20), RED)).toEqual(RED);
      expect(hits).toEqual([]);
    });
  });

  it('sanitizer: escapes and unterminated url() cannot smuggle a reference', () => {
    const out = (s: string) => sanitizeSvg(s, { maxExpansion: 1e6 }).svg.toString();
    expect(
      out('<svg xmlns="http://www.w3.org/2000/svg"><style>rect { fill: \\75rl(file:///etc/passwd) }</style></svg>'),
    ).not.toMatch(/passwd/);
    expect(
      out('<svg xmlns="http://www.w3.org/2000/svg"><rect style="fill: url(file:///etc/passwd"/></svg>'),
    ).not.toMatch(/passwd/);
    expect(out('<svg xmlns="http://www.w3.org/2000/svg"><rect fill="&#117;rl(http://x/y#z)"/></svg>')).not.toMatch(
      /http:\/\/x/,
    );
    expect(out('<svg xmlns="http://www.w3.org/2000/svg"><style>@IMPORT "http://x/a.css";</style></svg>')).not.toMatch(
      /http:\/\/x/,
    );
    expect(
      out(
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:q="http://www.w3.org/1999/xlink"><use q:href=" http://x/a.svg#b"/></svg>',
      ),
    ).not.toMatch(/http:\/\/x/);
    expect(out('<svg xmlns="http://www.w3.org/2000/svg"><use href="#b"/><rect id="b" fill="url(#g)"/></svg>')).toMatch(
      /href="#b".*fill="url\(#g\)"/,
    );
    expect(() => out('<html><svg/></html>')).toThrow(/root element is not <svg>/);
  });

  it('an inline image that is a pixel bomb is refused before librsvg sees it', async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><image href="data:image/png;base64,${bombPng(100_000, 100_000).toString('base64')}" width="10" height="10"/></svg>`;
    const e = await failure(convert([file('bomb.svg', svg)]));
    expect(e.code).toBe('INVALID_INPUT');
  });

  it('a huge declared size is rendered within the render cap, and the fit page stays within 200 in', async () => {
    const { out } = await convert([file('big.svg', redSvg('', 'width="100000" height="50000"'))], { pageSize: 'fit' });
    const [img] = pdfImages(out);
    expect(img!.width * img!.height).toBeLessThanOrEqual(25_000_000);
    expect(pdfInfo(out).sizes[0]).toEqual([14400, 7200]);
  });
});

describe('layout', () => {
  const wide = () => solid(2000, 1000, '#0000ff').png().toBuffer();
  const tall = () => solid(1000, 2000, '#0000ff').png().toBuffer();

  it('A4 and letter, portrait and landscape', async () => {
    const img = file('w.png', await wide());
    const sizes = async (o: Partial<ImagesToPdfOptions>) => pdfInfo((await convert([img], o)).out).sizes[0];
    expect(await sizes({ pageSize: 'A4', orientation: 'portrait' })).toEqual([595.28, 841.89]);
    expect(await sizes({ pageSize: 'A4', orientation: 'landscape' })).toEqual([841.89, 595.28]);
    expect(await sizes({ pageSize: 'letter', orientation: 'portrait' })).toEqual([612, 792]);
    expect(await sizes({ pageSize: 'letter', orientation: 'landscape' })).toEqual([792, 612]);
  });

  it('auto: a landscape page for a wider-than-tall image, portrait otherwise (after EXIF orientation)', async () => {
    const turned = await solid(2000, 1000, '#ff0000').withMetadata({ orientation: 6 }).jpeg().toBuffer();
    const { out } = await convert(
      [file('w.png', await wide()), file('t.png', await tall()), file('turned.jpg', turned)],
      {
        pageSize: 'letter',
        orientation: 'auto',
      },
    );
    expect(pdfInfo(out).sizes).toEqual([
      [792, 612],
      [612, 792],
      [612, 792],
    ]);
  });

  it('margins: the image fills the box inside them, the margins stay white', async () => {
    const { out } = await convert([file('w.png', await wide())], {
      pageSize: 'A4',
      orientation: 'landscape',
      margin: 36,
    });
    // 1500×750 pt shrunk into 769.89 wide: 384.95 high, centred.
    const px = await renderPage(out);
    expect(near(px(38, 297), BLUE)).toEqual(BLUE);
    expect(near(px(803, 297), BLUE)).toEqual(BLUE);
    expect(px(34, 297)).toEqual(WHITE);
    expect(px(808, 297)).toEqual(WHITE);
    expect(px(420, 297 + 384.95 / 2 + 3)).toEqual(WHITE);
    expect(near(px(420, 297 + 384.95 / 2 - 3), BLUE)).toEqual(BLUE);
  });

  it('fit: the page is the image plus the margins', async () => {
    const { out } = await convert([file('w.png', await wide())], { pageSize: 'fit', margin: 20 });
    expect(pdfInfo(out).sizes[0]).toEqual([1540, 790]);
    const px = await renderPage(out);
    expect(px(10, 10)).toEqual(WHITE);
    expect(near(px(25, 25), BLUE)).toEqual(BLUE);
  });

  it('small images are not enlarged: 96×96 px is 72×72 pt, centred on A4', async () => {
    const { out } = await convert([file('s.png', await solid(96, 96, '#ff0000').png().toBuffer())]);
    const px = await renderPage(out);
    const cx = 595.28 / 2;
    const cy = 841.89 / 2;
    expect(near(px(cx, cy), RED)).toEqual(RED);
    expect(near(px(cx + 34, cy + 34), RED)).toEqual(RED);
    expect(px(cx + 40, cy)).toEqual(WHITE);
    expect(px(cx, cy - 40)).toEqual(WHITE);
  });

  it('refuses a margin that leaves no room, naming the field', async () => {
    const e = await failure(convert([file('w.png', await wide())], { margin: 400 }));
    expect(e.code).toBe('INVALID_INPUT');
    expect(e.message).toMatch(/^margin: must be less than 296 points on A4 pages/);
    expect((await failure(convert([file('w.png', await wide())], { margin: -1 }))).message).toMatch(/^margin:/);
  });
});

describe('many images', () => {
  it('keeps the order given, mixing formats', async () => {
    const colours: Array<[number, number, number]> = [
      RED,
      GREEN,
      BLUE,
      BLACK,
      [255, 255, 0],
      [0, 255, 255],
      [255, 0, 255],
      [128, 128, 128],
    ];
    const inputs: string[] = [];
    for (const [i, [r, g, b]] of colours.entries()) {
      const img = solid(64, 48, { r, g, b });
      const kind = ['png', 'jpeg', 'webp', 'tiff'][i % 4] as 'png' | 'jpeg' | 'webp' | 'tiff';
      inputs.push(file(`${i}.${kind}`, await img.toFormat(kind, kind === 'jpeg' ? { quality: 95 } : {}).toBuffer()));
    }
    const { out, pages } = await convert(inputs, { pageSize: 'fit' });
    expect(pages).toBe(colours.length);
    for (const [i, c] of colours.entries()) expect(near((await renderPage(out, i + 1))(24, 18), c, 20)).toEqual(c);
  });
});

describe('refusals and limits', () => {
  it('wrong formats: a PDF, a text file, an empty file — naming what is supported', async () => {
    const pdf = await failure(convert([await testDocument('page_1.pdf')]));
    expect(pdf.code).toBe('UNSUPPORTED_FORMAT');
    expect(pdf.message).toMatch(/^Image 1 is a PDF: send JPEG, PNG, GIF, WebP, TIFF, BMP, SVG, AVIF$/);
    const txt = await failure(convert([file('notes.png', 'just some text, named .png\n')]));
    expect(txt.code).toBe('UNSUPPORTED_FORMAT');
    expect(txt.message).toMatch(/not an image format/);
    expect((await failure(convert([file('empty.jpg', '')]))).code).toBe('UNSUPPORTED_FORMAT');
  });

  it('detects the format from the bytes, not the name', async () => {
    const { out } = await convert([file('actually-a-png.jpg', await solid(40, 40, '#ff0000').png().toBuffer())], {
      pageSize: 'fit',
    });
    expect(pdfImages(out)[0]!.enc).toBe('image');
  });

  it('a truncated PNG is INVALID_DOCUMENT, and no output is left behind', async () => {
    const png = await noise(300, 300, 40).png().toBuffer();
    const before = readdirSync(dir).filter((f) => f.endsWith('out.pdf')).length;
    const e = await failure(
      convert([
        file('ok.png', await solid(10, 10, '#fff').png().toBuffer()),
        file('cut.png', png.subarray(0, png.length >> 1)),
      ]),
    );
    expect(e.code).toBe('INVALID_DOCUMENT');
    expect(e.message).toMatch(/^Image 2 is damaged or truncated/);
    expect(readdirSync(dir).filter((f) => f.endsWith('out.pdf')).length).toBe(before);
  });

  it('a 1×1 PNG claiming 100000×100000 is refused at once from its header', async () => {
    const e = await failure(convert([file('bomb.png', bombPng(100_000, 100_000))]));
    // The message names the size the header claims: nothing but the header was read (the data holds one pixel).
    expect(e.code).toBe('INVALID_INPUT');
    expect(e.message).toMatch(
      /100000×100000 pixels, more than the 100 megapixels allowed per image \(IMAGES_MAX_PIXELS\)/,
    );
  });

  it('caps pages: a TIFF with more pages than allowed is refused before decoding them', async () => {
    const small = makeEngine({ MAX_PAGES: '2' });
    const pages = await Promise.all(['#ff0000', '#00ff00', '#0000ff'].map((c) => solid(8, 8, c).png().toBuffer()));
    const tif = file(
      'three.tif',
      await sharp(pages, { join: { animated: true } })
        .tiff()
        .toBuffer(),
    );
    const e = await failure(convert([tif], {}, undefined, small));
    expect(e.code).toBe('INVALID_INPUT');
    expect(e.message).toMatch(/more than 2 pages.*IMAGES_MAX_PAGES/);
    const one = file('one.png', pages[0]!);
    expect((await failure(convert([one, one, one], {}, undefined, small))).message).toMatch(/^files: at most 2 images/);
  });

  it('abort: a cancelled request stops between images with ABORTED and leaves no file', async () => {
    const img = file('n.png', await noise(1500, 1000, 30).png().toBuffer());
    const early = new AbortController();
    early.abort();
    expect((await failure(convert([img], {}, early.signal))).code).toBe('ABORTED');

    // What one image costs on this machine now: the abort must land within a few images, not after all thirty.
    let t = performance.now();
    await convert([img]);
    const oneImage = performance.now() - t;
    const ac = new AbortController();
    const out = path.join(dir, 'aborted.pdf');
    const p = engine.imagesToPdf!(Array(30).fill(img), out, A4, { scratch: dir, signal: ac.signal });
    await new Promise((r) => setTimeout(r, 150));
    t = performance.now();
    ac.abort();
    expect((await failure(p)).code).toBe('ABORTED');
    expect(performance.now() - t).toBeLessThan(10 * oneImage);
    expect(existsSync(out)).toBe(false);
  });

  it('takes a slot of the shared limiter: with one slot and no queue, a second conversion is QUEUE_FULL', async () => {
    const limiter = new Limiter({ concurrency: 1, queueSize: 0 });
    const e1 = makeEngine({}, limiter);
    const img = file('n.png', await noise(1000, 1000, 30).png().toBuffer());
    const first = convert([img, img], {}, undefined, e1);
    expect(limiter.stats().running).toBe(1);
    expect((await failure(convert([img], {}, undefined, e1))).code).toBe('QUEUE_FULL');
    expect((await first).pages).toBe(2);
    expect(limiter.stats().running).toBe(0);
  });
});
