import { z } from 'zod';
import { errorCodes, type TErrorCode } from './error-codes';

export * from './error-codes';

export const ZErrorCode = z.enum(errorCodes as [TErrorCode, ...TErrorCode[]]);

export const ZErrorResponse = z
  .object({
    success: z.literal(false),
    error: z.string().describe('Human-readable message; names the offending field and its valid values'),
    code: ZErrorCode,
    requestId: z.string(),
    details: z.unknown().optional(),
  })
  .meta({ id: 'ErrorResponse' });
export type TErrorResponse = z.infer<typeof ZErrorResponse>;
