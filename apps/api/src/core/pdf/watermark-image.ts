import { readFile } from 'node:fs/promises';
import { fileTypeFromFile } from 'file-type';
import sharp from 'sharp';
import { EngineError } from '../errors';
import type { ImageMark, PdfMark } from './stamp';

/** A watermark image: PNG and JPEG as they are; other formats sharp can read become PNG. */
export async function watermarkImage(file: string, scale: number): Promise<ImageMark> {
  const type = await fileTypeFromFile(file).catch(() => undefined);
  if (type?.mime === 'image/png') return { kind: 'image', bytes: await readFile(file), format: 'png', scale };
  if (type?.mime === 'image/jpeg') return { kind: 'image', bytes: await readFile(file), format: 'jpg', scale };
  try {
    const bytes = await sharp(file, { limitInputPixels: 50_000_000 }).png().toBuffer();
    return { kind: 'image', bytes, format: 'png', scale };
  } catch (err) {
    throw new EngineError(
      'UNSUPPORTED_FORMAT',
      'image: not a readable image (valid: PNG, JPEG, WebP, GIF, TIFF, SVG)',
      {
        cause: err,
        details: { field: 'image' },
      },
    );
  }
}

/** A PDF whose first page is drawn as the mark (pdf-lib reads it when the stamp is built). */
export async function watermarkPdfPage(file: string, scale: number): Promise<PdfMark> {
  return { kind: 'pdf', bytes: await readFile(file), scale };
}
