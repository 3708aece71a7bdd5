import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ZErrorResponse, type TAdminCapability } from '@docflow/contracts';
import { requestLanguage } from '../../../lib/i18n/language';
import { authenticate, currentUser, requireCapability } from '../../../plugins/authenticate';
import type { AdminContext } from '../../../services/admin/context';

/** Who acts, from where, with this node's key cache: what every admin service receives. */
export function adminContext(app: FastifyInstance, request: FastifyRequest): AdminContext {
  const user = currentUser(request);
  const keys = app.apiKeyGuard.eviction;
  return {
    db: app.db,
    actor: { id: user.id, role: user.role },
    ip: request.ip || null,
    language: requestLanguage(request.headers['accept-language']),
    keys: { evictUser: (id) => keys.evictUser(id), evict: (hash) => keys.evict(hash), clear: () => keys.clear() },
  };
}

/**
 * Route options of an admin route: signed in (401), holding the capability (403), documented as such. The checks run
 * as onRequest hooks, before the body is even validated, so an outsider learns nothing from a route's 422s.
 */
export const adminRoute = (capability: TAdminCapability, tag = 'admin') => ({
  onRequest: [authenticate, requireCapability(capability)],
  schemaBase: { tags: [tag], security: [{ accessToken: [] }] },
});

export const adminErrors = { 401: ZErrorResponse, 403: ZErrorResponse };
export const withErrors = <const S extends number>(...statuses: S[]) => ({
  ...adminErrors,
  ...(Object.fromEntries(statuses.map((s) => [s, ZErrorResponse])) as Record<S, typeof ZErrorResponse>),
});
