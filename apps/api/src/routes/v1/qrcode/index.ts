import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  ZErrorResponse,
  ZQrOptions,
  ZQrTypesResponse,
  qrTypes,
  catalogueEntry,
  type TQrType,
} from '@docflow/contracts';
import { qrcodeEndpoints } from '../../../endpoints/qrcode/index';
import { sendData } from '../../../lib/send-result';
import { registerProcessingRoute } from '../processing-door';

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

  for (const endpoint of qrcodeEndpoints) registerProcessingRoute(app, endpoint);

  app.get(
    '/types',
    {
      ...guard,
      schema: {
        ...common,
        summary: catalogueEntry('/qrcode/types').summary,
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
}
