import { z } from 'zod';

/** `{ success: true, message?, data }`: the envelope of every JSON answer that is not an error. */
export function successEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ success: z.literal(true), message: z.string().optional(), data });
}

export const ZMessageResponse = z.object({ success: z.literal(true), message: z.string() });

export const ZPagination = z.object({
  page: z.number().int(),
  limit: z.number().int(),
  total: z.number().int(),
  totalPages: z.number().int(),
});
export type TPagination = z.infer<typeof ZPagination>;

export const ZPageQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(10),
});

/** Query-string booleans arrive as text: accept true/false/1/0. */
export const ZQueryBoolean = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
  .transform((v) => v === true || v === 'true' || v === '1');

export const ZIdParam = z.object({ id: z.string().uuid() });

/** Endpoint groups of the processing API; plans allow a subset. */
export const endpointGroups = ['conversion', 'pdf', 'ocr', 'qrcode', 'batch', 'webhook'] as const;
export const ZEndpointGroup = z.enum(endpointGroups);
export type TEndpointGroup = z.infer<typeof ZEndpointGroup>;
