import type { z } from 'zod';
import type { qrTypes, TQrType } from '@docflow/contracts';
import type { Engines } from '../../engines';
import { EngineError } from '../../errors';
import type { QrCode, QrRenderOptions } from './interfaces';
import * as payloads from '../../qr/payloads';

/**
 * Encoding a QR code as the API offers it: the payload of each type from its validated fields (payloads.ts writes
 * the formats), encoded through the encodeQr chain. Framework-free.
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
