/** Formats recognised from their first bytes; only some of them can be converted (see `supportedFormats`). */
export type ImageFormat =
  | 'jpeg'
  | 'png'
  | 'gif'
  | 'webp'
  | 'tiff'
  | 'bmp'
  | 'svg'
  | 'svgz'
  | 'avif'
  | 'heic'
  | 'heif'
  | 'jp2'
  | 'jxl'
  | 'ico'
  | 'psd'
  | 'pdf';

/** What a client is told when a file is not one of these. */
export const SUPPORTED_FORMATS_TEXT = 'JPEG, PNG, GIF, WebP, TIFF, BMP, SVG, AVIF';

const ascii = (b: Buffer, at: number, s: string) =>
  b.length >= at + s.length && b.toString('latin1', at, at + s.length) === s;

/** ISO-BMFF brands: AVIF is decodable (AV1); HEIC needs an HEVC decoder that sharp's prebuilt libvips lacks. */
function heifFamily(head: Buffer): ImageFormat | null {
  if (!ascii(head, 4, 'ftyp') || head.length < 16) return null;
  const boxLen = Math.min(head.readUInt32BE(0), head.length);
  const brands = [head.toString('latin1', 8, 12)];
  for (let at = 16; at + 4 <= boxLen; at += 4) brands.push(head.toString('latin1', at, at + 4));
  if (brands.some((b) => b === 'avif' || b === 'avis')) return 'avif';
  if (brands.some((b) => ['heic', 'heix', 'heim', 'heis', 'hevc', 'hevx'].includes(b))) return 'heic';
  if (brands.some((b) => b === 'mif1' || b === 'msf1')) return 'heif';
  return null;
}

/** An XML document whose root element is <svg> (after the prolog: declaration, comments, doctype). */
function looksLikeSvg(head: Buffer): boolean {
  let s = head.toString('utf8').replace(/^\uFEFF/, '');
  for (;;) {
    s = s.trimStart();
    const m = /^(<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>[]*(\[[\s\S]*?\])?\s*>)/i.exec(s);
    if (!m) break;
    s = s.slice(m[0].length);
  }
  return /^<(?:[A-Za-z_][\w.-]*:)?svg[\s>/]/.test(s);
}

/** Detect the format from the bytes (never the name): `head` is at least the first 4 KiB when the file is that long. */
export function detectImageFormat(head: Buffer): ImageFormat | null {
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (head.length >= 8 && head.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'png';
  if (ascii(head, 0, 'GIF87a') || ascii(head, 0, 'GIF89a')) return 'gif';
  if (ascii(head, 0, 'RIFF') && ascii(head, 8, 'WEBP')) return 'webp';
  if (ascii(head, 0, 'II*\0') || ascii(head, 0, 'MM\0*') || ascii(head, 0, 'II+\0') || ascii(head, 0, 'MM\0+'))
    return 'tiff';
  if (ascii(head, 0, 'BM') && head.length >= 18 && [12, 40, 52, 56, 64, 108, 124].includes(head.readUInt32LE(14)))
    return 'bmp';
  const heif = heifFamily(head);
  if (heif) return heif;
  if (ascii(head, 0, '%PDF-')) return 'pdf';
  if (ascii(head, 4, 'jP  ') || (head[0] === 0xff && head[1] === 0x4f && head[2] === 0xff && head[3] === 0x51))
    return 'jp2';
  if ((head[0] === 0xff && head[1] === 0x0a) || ascii(head, 4, 'JXL ')) return 'jxl';
  if (head.length >= 4 && head.readUInt32LE(0) === 0x00010000) return 'ico';
  if (ascii(head, 0, '8BPS')) return 'psd';
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'svgz';
  if (looksLikeSvg(head)) return 'svg';
  return null;
}

export { looksLikeSvg };
