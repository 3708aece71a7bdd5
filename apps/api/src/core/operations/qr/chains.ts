import type { ChainSpecs } from '../../chain';

/** The engine chains of the QR operations (encode.ts, decode.ts): variable, default engines, and what each does. */
export const qrChains = {
  encodeQr: { env: 'QR_ENCODE_ENGINES', defaults: ['qrcode'], what: 'QR generation' },
  decodeQr: { env: 'QR_DECODE_ENGINES', defaults: ['zbar'], what: 'QR decoding' },
} satisfies ChainSpecs;
