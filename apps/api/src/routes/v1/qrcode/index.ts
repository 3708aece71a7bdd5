import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  ZAsyncFields,
  ZAsyncJsonFields,
  ZErrorResponse,
  ZJobAdmittedResponse,
  ZQrDecodeResponse,
  ZQrOptions,
  ZQrResultResponse,
  ZQrTypesResponse,
  ZUploadFile,
  qrTypes,
  type TQrType,
} from '@docflow/contracts';
import { decodeQrImage, encodeQrCode } from '../../../core/qr/operations';
import { AppError } from '../../../lib/app-error';
import { receiveUpload } from '../../../lib/uploads';
import { sendBuffer, sendData } from '../../../lib/send-result';
import { callSignal } from '../../../plugins/processing-routes';

/** The fields of a schema as GET /types lists them. */
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
    const body = (def.schema as z.ZodObject).extend(ZQrOptions.shape).extend(ZAsyncJsonFields.shape);
    app.post(
      `/${type}`,
      {
        ...guard,
        schema: {
          ...common,
          summary: `QR code: ${def.description.toLowerCase()}`,
          description: `Encodes ${def.encodes}. Answers the image (image/png or image/svg+xml), or JSON with a data URL for format=json.`,
          body,
          response: {
            200: ZQrResultResponse.describe('format=json; png and svg answer the image itself'),
            202: ZJobAdmittedResponse,
            ...errors,
          },
        },
      },
      async (request, reply) => {
        const call = request.body as Record<string, unknown>;
        if (!request.jobRun && app.jobs.wanted(request, call)) return app.jobs.admitJson(request, reply, call);
        // An API node runs no processing: a worker makes the code, answered here when it is done.
        if (!request.jobRun && app.jobs.remoteOnly) return app.jobs.admitJson(request, reply, call, { wait: true });
        // The body was validated against this type's schema (and the common options) above.
        const input = request.body as z.output<(typeof qrTypes)[TQrType]['schema']> & z.output<typeof ZQrOptions>;
        const format = input.format === 'svg' ? 'svg' : 'png';
        const { payload, code } = await encodeQrCode(app.engines, type, input, {
          format,
          size: input.size,
          margin: input.margin,
          errorCorrection: input.errorCorrection,
          color: input.color,
          background: input.background,
        });
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
      body: z
        .object({ image: ZUploadFile.describe('PNG, JPEG, GIF, BMP, TIFF or WebP image') })
        .extend(ZAsyncFields.shape),
      response: { 200: ZQrDecodeResponse, 202: ZJobAdmittedResponse, ...errors },
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
      if (!request.jobRun && app.jobs.wanted(request, upload.fields))
        return app.jobs.admit(request, reply, upload.files, upload.fields);
      if (!request.jobRun && app.jobs.remoteOnly)
        return app.jobs.admit(request, reply, upload.files, upload.fields, { wait: true });
      const symbols = await decodeQrImage(app.engines, file.path, {
        ws: await request.workspace(),
        signal: callSignal(request, reply),
      });
      return sendData(reply, { count: symbols.length, symbols });
    },
  });
}
