import type { z } from 'zod';
import { ZQrDecodeResponse, ZQrOptions, ZQrResultResponse, qrTypes, type TQrType } from '@docflow/contracts';
import { decodeQrImage } from '../../core/operations/qr/decode';
import { encodeQrCode } from '../../core/operations/qr/encode';
import { AppError } from '../../lib/app-error';
import { dataOutcome } from '../../lib/outcome';
import { defineEndpoint, type ProcessingEndpoint } from '../processing-endpoint';

/** A generator's endpoint: the JSON body is the type's fields and the image options. */
function generatorEndpoint(type: TQrType): ProcessingEndpoint {
  const def = qrTypes[type];
  return defineEndpoint(`/qrcode/${type}`, {
    description: `Encodes ${def.encodes}. Answers the image (image/png or image/svg+xml), or JSON with a data URL for format=json.`,
    files: { description: 'No file: the JSON body' },
    response: ZQrResultResponse.describe('format=json; png and svg answer the image itself'),
    async run({ fields, meter, job }) {
      const input = fields as z.output<(typeof qrTypes)[TQrType]['schema']> & z.output<typeof ZQrOptions>;
      const format = input.format === 'svg' ? 'svg' : 'png';
      const { payload, code } = await encodeQrCode(job.engines, type, input, {
        format,
        size: input.size,
        margin: input.margin,
        errorCorrection: input.errorCorrection,
        color: input.color,
        background: input.background,
      });
      if (input.format === 'json') {
        meter.bytesOut = code.data.length;
        return dataOutcome({
          type,
          format,
          mimeType: code.mimeType,
          dataUrl: `data:${code.mimeType};base64,${code.data.toString('base64')}`,
          payload,
          size: input.size,
          version: code.version,
          errorCorrection: input.errorCorrection,
        });
      }
      return {
        kind: 'bytes',
        data: code.data,
        fileName: `qrcode-${type}.${format}`,
        mimeType: code.mimeType,
        inline: true,
        headers: { 'X-QR-Version': code.version },
      };
    },
  });
}

/** The QR code endpoints, in the catalogue's order: the generators, then the decoder. */
export const qrcodeEndpoints: readonly ProcessingEndpoint[] = [
  ...(Object.keys(qrTypes) as TQrType[]).map(generatorEndpoint),

  defineEndpoint('/qrcode/decode', {
    noun: 'image',
    files: { also: ['file'], description: 'PNG, JPEG, GIF, BMP, TIFF or WebP image' },
    response: ZQrDecodeResponse,
    async run({ files, job }) {
      const file = files[0]!;
      if (file.size === 0)
        throw new AppError('INVALID_INPUT', 'image: the file is empty', { details: { field: 'image' } });
      const symbols = await decodeQrImage(job.engines, file.path, { ws: job.ws, signal: job.signal });
      return dataOutcome({ count: symbols.length, symbols });
    },
  }),
];
