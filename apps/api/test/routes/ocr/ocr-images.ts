import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PDFDocument } from 'pdf-lib';
import sharp from 'sharp';

/** Test images with known text: SVG text in DejaVu Sans rendered by sharp at scanner-like sizes. */

const dir = mkdtempSync(path.join(os.tmpdir(), 'docflow-ocr-fixtures-'));
let n = 0;
const file = (name: string) => path.join(dir, `${++n}-${name}`);

export const ENGLISH = [
  'The quick brown fox jumps over the lazy dog.',
  'Invoice number 48213 is due on 15 March 2024.',
];
export const FRENCH = ['Le garçon a déjà mangé une crème brûlée.', 'Où est la forêt près du château?'];

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

export interface TextImageOptions {
  lines: string[];
  /** Pixels; 300 dpi text of 11 pt is about 46 px. */
  fontSize?: number;
  width?: number;
  height?: number;
  /** Degrees, counter-clockwise (positive: lines rise to the right). */
  skew?: number;
  /** Grey of the ink and of the paper (0-255). */
  ink?: number;
  paper?: number;
  /** Fraction of pixels flipped to random greys (salt and pepper). */
  noise?: number;
  /** Gaussian blur sigma. */
  blur?: number;
  dpi?: number;
}

export async function textImage(o: TextImageOptions): Promise<Buffer> {
  const size = o.fontSize ?? 46;
  const lineGap = Math.round(size * 1.9);
  const width = o.width ?? 1600;
  const height = o.height ?? Math.round(size * 3 + lineGap * o.lines.length);
  const ink = o.ink ?? 0;
  const paper = o.paper ?? 255;
  const hex = (v: number) => `#${v.toString(16).padStart(2, '0').repeat(3)}`;
  // Text block centred vertically: real pages have margins, and tesseract finds nothing in lines touching the edge.
  const top = Math.round((height - lineGap * (o.lines.length - 1)) / 2 + size * 0.35);
  const cx = width / 2;
  const cy = height / 2;
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">` +
    `<rect width="100%" height="100%" fill="${hex(paper)}"/>` +
    `<g transform="rotate(${-(o.skew ?? 0)} ${cx} ${cy})">` +
    o.lines
      .map(
        (l, i) =>
          `<text x="${Math.round(size * 1.5)}" y="${top + i * lineGap}" font-family="DejaVu Sans" font-size="${size}" fill="${hex(ink)}">${esc(l)}</text>`,
      )
      .join('') +
    '</g></svg>';
  let img = sharp(Buffer.from(svg))
    .flatten({ background: hex(paper) })
    .greyscale();
  if (o.blur) img = img.blur(o.blur);
  if (o.noise) {
    const { data, info } = await img.raw().toBuffer({ resolveWithObject: true });
    // A fixed seed: the same noisy image on every run.
    let seed = 12345;
    const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    for (let i = 0; i < data.length; i += info.channels) if (rnd() < o.noise) data[i] = Math.floor(rnd() * 256);
    img = sharp(data, { raw: { width: info.width, height: info.height, channels: info.channels } });
  }
  return img
    .png()
    .withMetadata({ density: o.dpi ?? 300 })
    .toBuffer();
}

export async function saveImage(buf: Buffer, name: string): Promise<string> {
  const p = file(name);
  writeFileSync(p, buf);
  return p;
}

/** A "scan": each image a page of a PDF, at the image's size at `dpi` (what a scanner's PDF is). */
export async function scannedPdf(images: Buffer[], dpi = 300): Promise<Buffer> {
  const doc = await PDFDocument.create();
  for (const png of images) {
    const img = await doc.embedPng(png);
    const w = (img.width * 72) / dpi;
    const h = (img.height * 72) / dpi;
    const page = doc.addPage([w, h]);
    page.drawImage(img, { x: 0, y: 0, width: w, height: h });
  }
  return Buffer.from(await doc.save());
}

/** An A4 page at 300 dpi (2480×3508) of body text, for timing. */
export async function a4Page(): Promise<Buffer> {
  const words =
    'the quick brown fox jumps over the lazy dog while invoice numbers and dates are read by the scanner'.split(' ');
  const lines = Array.from({ length: 40 }, (_, i) =>
    Array.from({ length: 11 }, (_, j) => words[(i * 7 + j) % words.length]).join(' '),
  );
  return textImage({ lines, fontSize: 42, width: 2480, height: 3508 });
}

/** Words of the dense page's prose: ordinary English (tesseract's dictionary knows them), short ones mixed in. */
const PROSE = (
  'the council agreed that every village along the river should keep its own records of harvests weather markets ' +
  'and disputes so that later readers could understand how ordinary families lived through difficult winters while ' +
  'merchants carried wool timber salt and grain between distant towns each season teachers wrote letters describing ' +
  'lessons children learned arithmetic history music and careful handwriting although many documents were damaged ' +
  'by water fire or simple neglect several important volumes survived a an and as at be by for from had has he her ' +
  'his in is it its not of on or our she so than that the their them then there they this to was we were who with ' +
  'you all can did may one two old new year day way most much some such'
).split(' ');

/**
 * A dense A4 page at 300 dpi (2480×3508): 12-pt prose (50 px), 8 paragraphs of 6 full lines, ~630 words, the
 * density of a printed report (the a4Page above has 440 short words well spaced). Its text, by paragraph, comes back
 * with it, the same on every call.
 */
export async function densePage(): Promise<{ image: Buffer; paragraphs: string[][] }> {
  const size = 50;
  const width = 2480;
  const left = 220;
  const maxChars = Math.floor((width - 2 * left) / (size * 0.55));
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const paragraphs = Array.from({ length: 8 }, () =>
    Array.from({ length: 6 }, () => {
      let line = '';
      for (;;) {
        const w = PROSE[Math.floor(rnd() * PROSE.length)]!;
        if (line.length + 1 + w.length > maxChars) return line;
        line = line ? `${line} ${w}` : w;
      }
    }),
  );
  const pitch = Math.round(size * 1.15);
  let y = 180;
  const texts: string[] = [];
  for (const lines of paragraphs) {
    for (const l of lines) {
      texts.push(`<text x="${left}" y="${y}" font-family="DejaVu Sans" font-size="${size}">${esc(l)}</text>`);
      y += pitch;
    }
    y += Math.round(size * 0.6);
  }
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="3508">` +
    `<rect width="100%" height="100%" fill="#fff"/>${texts.join('')}</svg>`;
  const image = await sharp(Buffer.from(svg))
    .flatten({ background: '#ffffff' })
    .greyscale()
    .png()
    .withMetadata({ density: 300 })
    .toBuffer();
  return { image, paragraphs };
}

const crcTable = Array.from({ length: 256 }, (_, k) => {
  let c = k;
  for (let i = 0; i < 8; i++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  let c = 0xffffffff;
  for (const b of body) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE((c ^ 0xffffffff) >>> 0);
  return Buffer.concat([len, body, crc]);
}

/** A 100-byte PNG that declares 50 000 × 50 000 grey pixels: it must be refused from its header, never decoded. */
export function pixelBomb(): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(50_000, 0);
  ihdr.writeUInt32BE(50_000, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // grey
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', Buffer.from([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

export const normalise = (s: string) => s.replace(/\s+/g, ' ').trim();
