import { z } from 'zod';
import { ZPagination, ZQueryBoolean, successEnvelope } from '../common';

// Audit log

export const ZAuditEntry = z
  .object({
    id: z.string(),
    at: z.string(),
    action: z.string(),
    actor: z.object({ id: z.string(), email: z.string().nullable(), name: z.string().nullable() }).nullable(),
    target: z.object({ type: z.string(), id: z.string(), label: z.string().nullable() }).nullable(),
    ip: z.string().nullable(),
    details: z.record(z.string(), z.unknown()).nullable(),
  })
  .meta({ id: 'AuditEntry' });
export type TAuditEntry = z.infer<typeof ZAuditEntry>;

export const ZAuditLogQuery = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  action: z.string().trim().max(60).optional(),
  actorId: z.string().uuid().optional(),
  targetId: z.string().max(100).optional(),
  adminOnly: ZQueryBoolean.default(true).describe('Only actions made through the admin API'),
});
export const ZAuditLogResponse = successEnvelope(z.object({ entries: z.array(ZAuditEntry), pagination: ZPagination }));
