import type { OpContext } from '../../interfaces';

/**
 * The engine interfaces of the QR operations (encode.ts, decode.ts), one small interface each as core/interfaces.ts
 * describes them.
 */

export type QrErrorCorrection = 'L' | 'M' | 'Q' | 'H';
export interface QrRenderOptions {
  format: 'png' | 'svg';
  size: number;
  margin: number;
  errorCorrection: QrErrorCorrection;
  /** #rrggbbaa */
  color: string;
  background: string;
}
export interface QrCode {
  data: Buffer;
  mimeType: 'image/png' | 'image/svg+xml';
  version: number;
}
export interface QrEncoder {
  /** In-process (a worker thread or the main one), no queue, no subprocess. INVALID_INPUT over capacity. */
  encodeQr(payload: string, opts: QrRenderOptions): Promise<QrCode>;
}

export interface DecodedSymbol {
  type: string;
  data: string;
}
export interface QrDecoder {
  decodeQr(image: string, ctx: OpContext): Promise<DecodedSymbol[]>;
}

/** This area's operations by the name of their one method (core/interfaces.ts joins the areas into Operations). */
export interface QrOperations {
  encodeQr: QrEncoder;
  decodeQr: QrDecoder;
}
