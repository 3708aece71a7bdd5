import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { crc32, inflate as inflateCallback, inflateSync } from 'node:zlib';
import sharp from 'sharp';
import { aborted } from '../../limiter';
import type { RenderedPage } from '../../operations/pdf/interfaces';
import { IDENTITY, multiply, type Matrix } from '../../operations/pdf/redact/geometry';
import { inheritAttrs, rootAttrs, type PageAttrs } from './boxes';
import { PdfDocument } from './document';
import { scanPageKeys } from './keys';
import { declineUnforeseen, giveUp } from './limits';
import { isDict, PdfStream, Real, type PdfDict, type PdfValue } from './objects';
import { walkPageTree } from './page-tree';

const inflateAsync = promisify(inflateCallback);

/** A page that is one image laid over the whole page and nothing else: what a scanner writes. */
interface ScanImage {
  page: number;
  width: number;
  height: number;
  channels: 1 | 3;
  offset: number;
  length: number;
  filter: 'none' | 'flate' | 'png' | 'jpeg';
}

interface PageState {
  attrs: PageAttrs;
  resources: PdfValue | undefined;
  node: PdfDict;
}

/** Content of a scanned page is a few cm operators around one Do: anything longer is something else. */
const MAX_CONTENT_BYTES = 4096;
/** How far the image's resolution may be from the one asked and still be its pixels as they are (0.5 %). */
const DPI_TOLERANCE = 0.005;

const num = (v: PdfValue | undefined): number | undefined =>
  typeof v === 'number' ? v : v instanceof Real ? v.value : undefined;

/**
 * The image a page's content draws, and where: `q`, any number of `cm`, one `/Name Do`, `Q`, nothing else (no text,
 * no path, no second image). Anything else gives up.
 */
function drawnImage(content: string): { name: string; matrix: Matrix } {
  if (/[()<>[\]{}%]/.test(content)) throw giveUp('page content is more than one image');
  const tokens = content.split(/[\s\0]+/).filter(Boolean);
  if (tokens[0] !== 'q' || tokens[tokens.length - 1] !== 'Q' || tokens[tokens.length - 2] !== 'Do')
    throw giveUp('page content is more than one image');
  let matrix: Matrix = IDENTITY;
  let i = 1;
  while (tokens[i + 6] === 'cm') {
    const m = tokens.slice(i, i + 6).map(Number);
    if (m.some((x) => !Number.isFinite(x))) throw giveUp('page content is more than one image');
    matrix = multiply(m as Matrix, matrix);
    i += 7;
  }
  const name = tokens[i];
  if (i !== tokens.length - 3 || !name?.startsWith('/')) throw giveUp('page content is more than one image');
  return { name: name.slice(1), matrix };
}

async function streamBytes(doc: PdfDocument, offset: number, length: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const part of doc.range(offset, length)) parts.push(part);
  return Buffer.concat(parts);
}

/** The page's one content stream, decoded (a scan's is tiny: a larger one is not a scan). Reads only. */
function contentStream(doc: PdfDocument, node: PdfDict): PdfStream {
  let contents = doc.resolve(node.get('Contents'));
  if (Array.isArray(contents) && contents.length === 1) contents = doc.resolve(contents[0]);
  if (!(contents instanceof PdfStream)) throw giveUp('page content is not one stream');
  return contents;
}

async function decodeContent(doc: PdfDocument, s: PdfStream): Promise<string> {
  const { offset, length, filter } = await doc.step(() => doc.streamExtent(s));
  if (length > MAX_CONTENT_BYTES) throw giveUp('page content is more than one image');
  const raw = await streamBytes(doc, offset, length);
  if (filter === undefined || filter === null) return raw.toString('latin1');
  if (filter !== 'FlateDecode' && !(Array.isArray(filter) && filter.length === 1 && filter[0] === 'FlateDecode'))
    throw giveUp('page content filter other than FlateDecode');
  try {
    return inflateSync(raw, { maxOutputLength: MAX_CONTENT_BYTES }).toString('latin1');
  } catch {
    throw giveUp('page content is more than one image');
  }
}

function channelsOf(doc: PdfDocument, cs: PdfValue | undefined): 1 | 3 {
  const v = doc.resolve(cs);
  if (v === 'DeviceGray') return 1;
  if (v === 'DeviceRGB') return 3;
  // An embedded profile (a scanner's sRGB or gray one): its channel count says how to read the samples.
  if (Array.isArray(v) && v.length === 2 && v[0] === 'ICCBased') {
    const profile = doc.resolve(v[1]);
    const n = profile instanceof PdfStream ? doc.resolve(profile.dict.get('N')) : undefined;
    if (n === 1 || n === 3) return n;
  }
  throw giveUp('image colour space other than gray or RGB');
}

/** The image of a scanned page, checked to cover the page at `dpi` with its pixels as they are. Reads only. */
function scanImage(doc: PdfDocument, state: PageState, page: number, content: string, dpi: number): ScanImage {
  const { attrs, node } = state;
  if (attrs.rotate !== 0) throw giveUp('rotated page');
  const annots = doc.resolve(node.get('Annots'));
  if (annots !== undefined && annots !== null && !(Array.isArray(annots) && annots.length === 0))
    throw giveUp('page has annotations');
  if (node.has('UserUnit')) throw giveUp('page has a user unit');
  const box = attrs.mediaBox;
  const crop = attrs.cropBox;
  const same = (a: number, b: number) => Math.abs(a - b) < 0.01;
  if (!(same(crop.x1, box.x1) && same(crop.y1, box.y1) && same(crop.x2, box.x2) && same(crop.y2, box.y2)))
    throw giveUp('page is cropped');
  const { name, matrix } = drawnImage(content);
  const [a, b, c, d, e, f] = matrix;
  const pageW = box.x2 - box.x1;
  const pageH = box.y2 - box.y1;
  if (!(same(b, 0) && same(c, 0) && same(a, pageW) && same(d, pageH) && same(e, box.x1) && same(f, box.y1)))
    throw giveUp('image does not cover the page upright');

  const resources = doc.resolve(state.resources);
  const xobjects = isDict(resources) ? doc.resolve(resources.get('XObject')) : undefined;
  const image = isDict(xobjects) ? doc.resolve(xobjects.get(name)) : undefined;
  if (!(image instanceof PdfStream) || image.dict.get('Subtype') !== 'Image') throw giveUp('drawn object is no image');
  const dict = image.dict;
  for (const key of ['ImageMask', 'SMask', 'Mask', 'Decode'])
    if (dict.has(key) && doc.resolve(dict.get(key)) !== false) throw giveUp(`image has /${key}`);
  const width = num(doc.resolve(dict.get('Width')));
  const height = num(doc.resolve(dict.get('Height')));
  if (!width || !height || !Number.isInteger(width) || !Number.isInteger(height)) throw giveUp('image size');
  // The renderer would resample an image of another resolution: its pixels are the page only at the one asked.
  const expected = [(pageW * dpi) / 72, (pageH * dpi) / 72];
  if (Math.abs(width / expected[0]! - 1) > DPI_TOLERANCE || Math.abs(height / expected[1]! - 1) > DPI_TOLERANCE)
    throw giveUp('image resolution other than the one asked');
  const channels = channelsOf(doc, dict.get('ColorSpace'));
  const { offset, length, filter } = doc.streamExtent(image);
  const filters = filter === undefined || filter === null ? [] : Array.isArray(filter) ? filter : [filter];
  let kind: ScanImage['filter'];
  if (filters.length === 0) kind = 'none';
  else if (filters.length === 1 && filters[0] === 'DCTDecode') kind = 'jpeg';
  else if (filters.length === 1 && filters[0] === 'FlateDecode') {
    const parms = doc.resolve(dict.get('DecodeParms'));
    const p = Array.isArray(parms) && parms.length === 1 ? doc.resolve(parms[0]) : parms;
    if (p === undefined || p === null) kind = 'flate';
    else {
      if (!isDict(p)) throw giveUp('image /DecodeParms');
      const value = (k: string, fallback: number) => num(doc.resolve(p.get(k))) ?? fallback;
      const predictor = value('Predictor', 1);
      if (predictor === 1) kind = 'flate';
      else if (
        predictor >= 10 &&
        value('Colors', 1) === channels &&
        value('BitsPerComponent', 8) === 8 &&
        value('Columns', 1) === width
      )
        kind = 'png';
      else throw giveUp('image predictor');
    }
  } else throw giveUp('image filter');
  if (kind !== 'jpeg' && num(doc.resolve(dict.get('BitsPerComponent'))) !== 8) throw giveUp('image bits per sample');
  return { page, width, height, channels, offset, length, filter: kind };
}

/** PNG-predicted Flate data is a PNG's image data as it is: given a header, libpng reads it off the event loop. */
function asPng(img: ScanImage, data: Buffer): Buffer {
  const chunk = (type: string, body: Buffer) => {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(body.length, 0);
    head.write(type, 4, 'latin1');
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), body])) >>> 0, 0);
    return Buffer.concat([head, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(img.width, 0);
  ihdr.writeUInt32BE(img.height, 4);
  ihdr[8] = 8;
  ihdr[9] = img.channels === 1 ? 0 : 2;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', data),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The image's samples, decoded: one byte a channel, rows top to bottom. */
async function samples(img: ScanImage, data: Buffer): Promise<{ pixels: Buffer; channels: number }> {
  const size = img.width * img.height * img.channels;
  if (img.filter === 'none' || img.filter === 'flate') {
    let pixels = data;
    if (img.filter === 'flate') {
      try {
        // One output chunk of the image's size: zlib's default of 16 KB makes inflating 26 MB four times slower.
        pixels = await inflateAsync(data, { maxOutputLength: size, chunkSize: Math.max(64 * 1024, size) });
      } catch {
        throw giveUp('image data does not inflate to its size');
      }
    }
    if (pixels.length < size) throw giveUp('image data shorter than its size');
    return { pixels: pixels.subarray(0, size), channels: img.channels };
  }
  const decoded = await sharp(img.filter === 'png' ? asPng(img, data) : data, {
    limitInputPixels: img.width * img.height,
  })
    .raw()
    .toBuffer({ resolveWithObject: true })
    .catch(() => {
      throw giveUp('image data does not decode');
    });
  const { width, height, channels } = decoded.info;
  if (width !== img.width || height !== img.height || (channels !== 1 && channels !== 3))
    throw giveUp('image data other than its dictionary says');
  return { pixels: decoded.data, channels };
}

/** Gray as poppler's -gray rendering makes it from RGB (0.3 R + 0.59 G + 0.11 B). */
function toGray(rgb: Buffer, pixels: number): Buffer {
  const gray = Buffer.allocUnsafe(pixels);
  for (let i = 0, j = 0; i < pixels; i++, j += 3)
    gray[i] = (rgb[j]! * 19661 + rgb[j + 1]! * 38666 + rgb[j + 2]! * 7209 + 32768) >>> 16;
  return gray;
}

/**
 * Pages of a scan as 8-bit gray PGM, straight from their images: a page that is one image covering it at the
 * resolution asked is those pixels, decoded and made gray. Rendering gives the same pixels slightly blurred by its
 * resampling (mean difference ~5 of 255 on a text page), in twice the time or more: pdftoppm decodes Flate itself,
 * slowly, and draws the image through its raster pipeline. Everything else
 * is declined (UNSUPPORTED_OPERATION) and the renderers after this one draw it: other formats, rotated, cropped or
 * annotated pages, anything drawn beside the image, masks, other resolutions, encrypted or unusual files.
 */
export async function renderScanPages(
  file: string,
  outDir: string,
  opts: { format: string; dpi: number; pages: number[] },
  signal?: AbortSignal,
): Promise<RenderedPage[]> {
  if (opts.format !== 'pgm') throw giveUp('only gray pages of scans are taken from their images');
  return declineUnforeseen(async () => {
    const doc = await PdfDocument.open(file, scanPageKeys);
    try {
      const wanted = new Set(opts.pages);
      const states = new Map<number, PageState>();
      await walkPageTree<PageState>(
        doc,
        {
          enter: (inherited, node) => ({
            attrs: inheritAttrs(doc, inherited.attrs, node),
            resources: node.has('Resources') ? node.get('Resources') : inherited.resources,
            node,
          }),
          page: (state, n) => {
            if (wanted.has(n)) states.set(n, state);
          },
        },
        { attrs: rootAttrs, resources: undefined, node: new Map() },
        { signal },
      );
      const out: RenderedPage[] = [];
      for (const page of opts.pages) {
        const state = states.get(page);
        if (!state) throw giveUp('page out of range');
        const content = await decodeContent(doc, await doc.step(() => contentStream(doc, state.node)));
        const img = await doc.step(() => scanImage(doc, state, page, content, opts.dpi));
        const { pixels, channels } = await samples(img, await streamBytes(doc, img.offset, img.length));
        if (signal?.aborted) throw aborted();
        const gray = channels === 1 ? pixels : toGray(pixels, img.width * img.height);
        const target = path.join(outDir, `scan-${page}.pgm`);
        await writeFile(target, [Buffer.from(`P5\n${img.width} ${img.height}\n255\n`), gray]);
        out.push({ page, path: target });
      }
      return out;
    } finally {
      await doc.close();
    }
  });
}
