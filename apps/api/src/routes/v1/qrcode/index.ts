import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import sharp from 'sharp';
import { fileTypeFromFile } from 'file-type';
import {
  ZErrorResponse,
  ZQrDecodeResponse,
  ZQrOptions,
  ZQrResultResponse,
  ZQrTypesResponse,
  ZUploadFile,
  qrTypes,
  type TQrType,
} from '@docflow/contracts';
import * as payloads from '../../../core/qr/payloads';
import { AppError } from '../../../lib/app-error';
import { receiveUpload } from '../../../lib/uploads';
import { sendBuffer, sendData } from '../../../lib/send-result';
import { requestSignal } from '../pdf/route-kit';

/** The text each type encodes, from its validated fields. */
const builders: { [K in TQrType]: (d: z.output<(typeof qrTypes)[K]['schema']>) => string } = {
  url: (d) => d.url,
  wifi: (d) => payloads.wifiPayload(d),
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
function checkWifiPassword(d: z.output<typeof qrTypes.wifi.schema>): void {
  if (d.encryption === 'nopass' || !d.password) return;
  const p = d.password;
  const ok =
    d.encryption === 'WPA'
      ? (p.length >= 8 && p.length <= 63) || /^[\da-f]{64}$/i.test(p)
      : [5, 13].includes(p.length) || /^([\da-f]{10}|[\da-f]{26})$/i.test(p);
  if (!ok) {
    throw new AppError(
      'INVALID_INPUT',
      d.encryption === 'WPA'
        ? 'password: a WPA key has 8 to 63 characters (or 64 hexadecimal digits)'
        : 'password: a WEP key has 5 or 13 characters (or 10 or 26 hexadecimal digits)',
      { details: { field: 'password' } },
    );
  }
}

function describeFields(schema: z.ZodType) {
  const js = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as {
    properties?: Record<
      string,
      { type?: string; description?: string; enum?: string[]; anyOf?: Array<{ type?: string }> }
    >;
    required?: string[];
  };
  return Object.entries(js.properties ?? {}).map(([name, p]) => ({
    name,
    type: p.type ?? (p.anyOf ? p.anyOf.map((a) => a.type ?? 'object').join(' | ') : 'string'),
    required: js.required?.includes(name) ?? false,
    ...(p.description ? { description: p.description } : {}),
    ...(p.enum ? { enum: p.enum.map(String) } : {}),
  }));
}

const errors = {
  400: ZErrorResponse,
  401: ZErrorResponse,
  403: ZErrorResponse,
  415: ZErrorResponse,
  422: ZErrorResponse,
  429: ZErrorResponse,
};

export async function qrcodeRoutes(app: FastifyInstance): Promise<void> {
  const guard = app.processingGuard('qrcode');
  const common = { tags: ['qrcode'], security: [{ apiKey: [] }] };

  for (const type of Object.keys(qrTypes) as TQrType[]) {
    const def = qrTypes[type];
    const body = (def.schema as z.ZodObject).extend(ZQrOptions.shape);
    app.post(
      `/${type}`,
      {
        ...guard,
        schema: {
          ...common,
          summary: `QR code: ${def.description.toLowerCase()}`,
          description: `Encodes ${def.encodes}. Answers the image (image/png or image/svg+xml), or JSON with a data URL for format=json.`,
          body,
          response: { 200: ZQrResultResponse.describe('format=json; png and svg answer the image itself'), ...errors },
        },
      },
      async (request, reply) => {
        const input = request.body as z.output<typeof body> & z.output<typeof ZQrOptions>;
        if (type === 'wifi') checkWifiPassword(input as unknown as z.output<typeof qrTypes.wifi.schema>);
        const payload = (builders[type] as (d: unknown) => string)(input);
        const format = input.format === 'svg' ? 'svg' : 'png';
        const { value: code } = await app.engines.run('encodeQr', (encode) =>
          encode(payload, {
            format,
            size: input.size,
            margin: input.margin,
            errorCorrection: input.errorCorrection,
            color: input.color,
            background: input.background,
          }),
        );
        if (input.format === 'json') {
          request.usage.bytesOut = code.data.length;
          return sendData(reply, {
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
        reply.header('X-QR-Version', code.version);
        return sendBuffer(request, reply, code.data, { fileName: `qrcode-${type}.${format}`, mimeType: code.mimeType });
      },
    );
  }

  app.get(
    '/types',
    {
      ...guard,
      schema: {
        ...common,
        summary: 'The QR code types, their fields and the common options',
        response: { 200: ZQrTypesResponse, ...errors },
      },
    },
    async (_request, reply) =>
      sendData(reply, {
        types: (Object.keys(qrTypes) as TQrType[]).map((t) => ({
          type: t,
          route: `/api/v1/qrcode/${t}`,
          description: qrTypes[t].description,
          encodes: qrTypes[t].encodes,
          fields: describeFields(qrTypes[t].schema),
        })),
        options: describeFields(ZQrOptions),
      }),
  );

  app.route({
    method: 'POST',
    url: '/decode',
    ...guard,
    // The image is read from the multipart parts by the handler; the body schema documents the form.
    validatorCompiler: () => () => ({ value: undefined }),
    schema: {
      ...common,
      summary: 'Find and decode the QR codes (and barcodes) in an image',
      consumes: ['multipart/form-data'],
      body: z.object({ image: ZUploadFile.describe('PNG, JPEG, GIF, BMP, TIFF or WebP image') }),
      response: { 200: ZQrDecodeResponse, ...errors },
    },
    handler: async (request, reply) => {
      const upload = await receiveUpload(request, {
        maxFileSize: request.apiKey?.limits.maxFileSize ?? 20 * 1_048_576,
        maxFiles: 1,
        fileFields: ['image', 'file'],
      });
      const file = upload.files[0];
      if (!file)
        throw new AppError('INVALID_INPUT', 'image: an image file is required (multipart field "image")', {
          details: { field: 'image' },
        });
      request.usage.bytesIn = file.size;
      if (file.size === 0)
        throw new AppError('INVALID_INPUT', 'image: the file is empty', { details: { field: 'image' } });
      const type = await fileTypeFromFile(file.path).catch(() => undefined);
      if (!type?.mime.startsWith('image/')) {
        throw new AppError(
          'UNSUPPORTED_FORMAT',
          `image: not an image${type ? ` (it looks like ${type.mime})` : ''}; valid: PNG, JPEG, GIF, BMP, TIFF, WebP`,
          {
            details: { field: 'image' },
          },
        );
      }
      let image = file.path;
      if (type.mime !== 'image/png' && type.mime !== 'image/jpeg') {
        // zbar reads PNG and JPEG for sure; everything else goes through sharp first.
        const ws = await request.workspace();
        image = ws.file('decode-input.png');
        try {
          await sharp(file.path, { limitInputPixels: 100_000_000 }).png().toFile(image);
        } catch (err) {
          throw new AppError('UNSUPPORTED_FORMAT', 'image: the image could not be read', {
            cause: err,
            details: { field: 'image' },
          });
        }
      }
      const ws = await request.workspace();
      const scratch = await ws.subdir('decode');
      const { value: symbols } = await app.engines.run('decodeQr', (decode) =>
        decode(image, { signal: requestSignal(reply), scratch }),
      );
      return sendData(reply, { count: symbols.length, symbols });
    },
  });
}
