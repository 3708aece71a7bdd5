import type { FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import {
  adminCapabilities,
  hasCapability,
  roleRank,
  roles,
  type TAdminCapability,
  type TUserRole,
} from '@docflow/contracts';
import { AppError } from '../lib/app-error';
import { getSessionState } from '../services/accounts/get-session-state';

export interface AuthUser {
  id: string;
  role: TUserRole;
  sessionId: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Open to a user who must still replace an admin-given temporary password (me, change-password). */
    passwordChangeAllowed?: boolean;
  }
  interface FastifyRequest {
    /** Set by `authenticate` from the dashboard access token. */
    authUser?: AuthUser;
  }
}

function bearer(request: FastifyRequest): string | undefined {
  const h = request.headers.authorization;
  if (!h) return undefined;
  const m = /^Bearer\s+(.+)$/i.exec(h);
  return m?.[1]?.trim();
}

/** preHandler for dashboard routes: a valid access token of an active user, else 401. */
export const authenticate: preHandlerAsyncHookHandler = async function (request: FastifyRequest, _reply: FastifyReply) {
  const token = bearer(request);
  if (!token)
    throw new AppError(
      'UNAUTHORIZED',
      'Authentication required: send an access token as "Authorization: Bearer <token>"',
    );
  const claims = await this.accessTokens.verify(token);
  // The role and the session's state come from the database, not the token: a demotion, a deactivation or a revoked
  // session takes effect at once rather than when the 15-minute token runs out.
  const row = await getSessionState(this.db, { sessionId: claims.sid, userId: claims.sub });
  if (!row || row.revokedAt || row.expiresAt < new Date())
    throw new AppError('INVALID_TOKEN', 'Session expired or revoked');
  if (!row.isActive) throw new AppError('ACCOUNT_DISABLED', 'This account has been deactivated');
  if (row.mustChangePassword && !request.routeOptions.config?.passwordChangeAllowed)
    throw new AppError(
      'PASSWORD_CHANGE_REQUIRED',
      'Choose a new password first: this account was given a temporary password (POST /api/v1/auth/change-password)',
    );
  request.authUser = { id: claims.sub, role: row.role, sessionId: claims.sid };
};

/** The signed-in user, for handlers behind `authenticate`. */
export function currentUser(request: FastifyRequest): AuthUser {
  if (!request.authUser) throw new AppError('UNAUTHORIZED', 'Authentication required');
  return request.authUser;
}

const rolesFrom = (least: TUserRole) => roles.filter((r) => roleRank[r] >= roleRank[least]);

/** preHandler for an admin capability (contracts' adminCapabilities: the one table of who may do what). */
export const requireCapability =
  (capability: TAdminCapability): preHandlerAsyncHookHandler =>
  async (request) => {
    const user = currentUser(request);
    if (!hasCapability(user.role, capability)) {
      const required = rolesFrom(adminCapabilities[capability]);
      throw new AppError('INSUFFICIENT_ROLE', `This action requires one of the roles: ${required.join(', ')}`, {
        details: { role: user.role, requiredRoles: required },
      });
    }
  };
