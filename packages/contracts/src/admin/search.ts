import { z } from 'zod';
import { successEnvelope } from '../common';
import { ZAdminUser } from './users';
import { ZCustomKey } from './custom-keys';

// Global search

export const ZAdminSearchQuery = z.object({
  q: z.string().trim().min(1).max(200),
  type: z.enum(['all', 'users', 'keys']).default('all'),
  limit: z.coerce.number().int().min(1).max(50).default(10),
});
export const ZAdminSearchResponse = successEnvelope(
  z.object({
    users: z.array(ZAdminUser),
    apiKeys: z.array(ZCustomKey),
  }),
);
