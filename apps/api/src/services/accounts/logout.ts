import { and, eq, isNull, type SQL } from 'drizzle-orm';
import { sessions } from '../../data/schema/index';
import { sha256 } from '../../lib/tokens';
import { recordAudit } from './audit';
import type { AccountContext, ClientInfo } from './context';

/**
 * End the session named by the refresh token, or else by the access token's session id. Never fails: an unknown,
 * expired or already revoked token simply ends nothing (the route always answers 200 and clears the cookie).
 */
export async function logout(
  ctx: AccountContext,
  from: { refreshToken?: string; accessToken?: string },
  client: ClientInfo,
): Promise<boolean> {
  const end = async (where: SQL | undefined) => {
    const [ended] = await ctx.db
      .update(sessions)
      .set({ revokedAt: new Date(), revokedReason: 'logout' })
      .where(and(where, isNull(sessions.revokedAt)))
      .returning({ id: sessions.id, userId: sessions.userId });
    if (ended)
      await recordAudit(ctx.db, {
        userId: ended.userId,
        action: 'logout',
        ip: client.ip,
        details: { sessionId: ended.id },
      });
    return !!ended;
  };
  if (from.refreshToken && (await end(eq(sessions.tokenHash, sha256(from.refreshToken))))) return true;
  if (from.accessToken) {
    const claims = await ctx.accessTokens.verify(from.accessToken).catch(() => undefined);
    if (claims) return end(and(eq(sessions.id, claims.sid), eq(sessions.userId, claims.sub)));
  }
  return false;
}
