import { fileTypeFromFile } from 'file-type';
import sharp from 'sharp';
import type { z } from 'zod';
import type { qrTypes, TQrType } from '@docflow/contracts';
import type { Engines } from '../engines';
import { EngineError } from '../errors';
import type { DecodedSymbol, QrCode, QrRenderOptions } from '../interfaces';
import type { Workspace } from '../workspace';
import * as payloads from './payloads';

/**
 * The QR operations as the API offers them: the payload of each type from its validated fields, encoding it through
 * the encodeQr chain, and finding the codes in an uploaded image through the decodeQr chain. Framework-free.
 */

type QrFields<K extends TQrType> = z.output<(typeof qrTypes)[K]['schema']>;

/** The text each type encodes, from its validated fields. */
const builders: { [K in TQrType]: (d: QrFields<K>) => string } = {
  url: (d) => d.url,
  wifi: (d) => {
    checkWifiPassword(d);
    return payloads.wifiPayload(d);
  },
  contact: (d) => payloads.contactPayload(d),
  event: (d) => payloads.eventPayload({ ...d, start: new Date(d.start), end: d.end ? new Date(d.end) : undefined }),
  location: (d) => payloads.locationPayload(d),
  sms: (d) => payloads.smsPayload(d),
  email: (d) => payloads.emailPayload(d),
  phone: (d) => payloads.phonePayload(d),
  text: (d) => d.text,
  generic: (d) => d.data,
};

/** WPA keys are 8-63 characters (or 64 hex digits); WEP keys 5/13 characters or 10/26 hex digits. */
function checkWifiPassword(d: QrFields<'wifi'>): void {
  if (d.encryption === 'nopass' || !d.password) return;
  const p = d.password;
  const ok =
    d.encryption === 'WPA'
      ? (p.length >= 8 && p.length <= 63) || /^[\da-f]{64}$/i.test(p)
      : [5, 13].includes(p.length) || /^([\da-f]{10}|[\da-f]{26})$/i.test(p);
  if (!ok) {
    throw new EngineError(
      'INVALID_INPUT',
      d.encryption === 'WPA'
        ? 'password: a WPA key has 8 to 63 characters (or 64 hexadecimal digits)'
        : 'password: a WEP key has 5 or 13 characters (or 10 or 26 hexadecimal digits)',
      { details: { field: 'password' } },
    );
  }
}

/** The text a QR code of `type` encodes for these (validated) fields. */
export function qrPayload<K extends TQrType>(type: K, fields: QrFields<K>): string {
  return (builders[type] as (d: QrFields<K>) => string)(fields);
}

/** A QR code of `type` for these fields, as PNG or SVG, with the payload it encodes. */
export async function encodeQrCode<K extends TQrType>(
  engines: Engines,
  type: K,
  fields: QrFields<K>,
  render: QrRenderOptions,
): Promise<{ payload: string; code: QrCode }> {
  const payload = qrPayload(type, fields);
  const { value: code } = await engines.run('encodeQr', (encode) => encode(payload, render));
  return { payload, code };
}

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
