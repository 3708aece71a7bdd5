import { fileTypeFromFile } from 'file-type';
import sharp from 'sharp';
import type { Engines } from '../../engines';
import { EngineError } from '../../errors';
import type { DecodedSymbol } from './interfaces';
import type { Workspace } from '../../workspace';

/** Images past this many pixels are refused before decoding (decompression bombs). */
const MAX_DECODE_PIXELS = 100_000_000;

/**
 * The QR codes (and barcodes) in an image. The image is recognised from its bytes; zbar reads PNG and JPEG for sure,
 * so every other format goes through sharp to PNG first.
 */
export async function decodeQrImage(
  engines: Engines,
  image: string,
  opts: { ws: Workspace; signal?: AbortSignal },
): Promise<DecodedSymbol[]> {
  const type = await fileTypeFromFile(image).catch(() => undefined);
  if (!type?.mime.startsWith('image/')) {
    throw new EngineError(
      'UNSUPPORTED_FORMAT',
      `image: not an image${type ? ` (it looks like ${type.mime})` : ''}; valid: PNG, JPEG, GIF, BMP, TIFF, WebP`,
      { details: { field: 'image' } },
    );
  }
  let readable = image;
  if (type.mime !== 'image/png' && type.mime !== 'image/jpeg') {
    readable = opts.ws.file('decode-input.png');
    try {
      await sharp(image, { limitInputPixels: MAX_DECODE_PIXELS }).png().toFile(readable);
    } catch (err) {
      throw new EngineError('UNSUPPORTED_FORMAT', 'image: the image could not be read', {
        cause: err,
        details: { field: 'image' },
      });
    }
  }
  const scratch = await opts.ws.subdir('decode');
  const { value: symbols } = await engines.run('decodeQr', (decode) =>
    decode(readable, { signal: opts.signal, scratch, runAs: opts.ws.account }),
  );
  return symbols;
}
