import { eq } from 'drizzle-orm';
import type { TTokens, TUser } from '@docflow/contracts';
import { sessions, users } from '../../data/schema/index';
import { randomToken, sha256 } from '../../lib/tokens';
import type { AccountContext, ClientInfo, UserRow } from './context';
import { toUserDto } from './to-user-dto';

/** What every sign-in (login, verified e-mail, reset password, sign-up without verification) hands back. */
export interface SignedIn {
  user: TUser;
  /** What the answer's body carries. */
  tokens: TTokens;
  /** For the httpOnly cookie only, never a body. */
  refreshToken: string;
  sessionId: string;
  /** Life of the refresh token: the cookie's max-age. */
  refreshTtlSeconds: number;
}

export const refreshTtlSeconds = (ctx: Pick<AccountContext, 'config'>, rememberMe: boolean): number =>
  Math.min(
    rememberMe ? ctx.config.REMEMBER_ME_TTL_DAYS : ctx.config.REFRESH_TOKEN_TTL_DAYS,
    ctx.config.SESSION_MAX_DAYS,
  ) * 86_400;

export async function signAccessToken(
  ctx: Pick<AccountContext, 'accessTokens'>,
  user: Pick<UserRow, 'id' | 'role'>,
  sessionId: string,
): Promise<TTokens> {
  const accessToken = await ctx.accessTokens.sign({ sub: user.id, role: user.role, sid: sessionId });
  return { accessToken, expiresIn: ctx.accessTokens.ttlSeconds, tokenType: 'Bearer' };
}

/**
 * Open a session (one row per device) and issue its tokens. Only the SHA-256 of the refresh token is stored; the
 * refresh token lives `REFRESH_TOKEN_TTL_DAYS`, or `REMEMBER_ME_TTL_DAYS` with "remember me", from its last use.
 */
export async function startSession(
  ctx: AccountContext,
  user: UserRow,
  client: ClientInfo,
  opts: { rememberMe?: boolean } = {},
): Promise<SignedIn> {
  const rememberMe = opts.rememberMe ?? false;
  const ttl = refreshTtlSeconds(ctx, rememberMe);
  const refreshToken = randomToken();
  const now = new Date();
  const [session] = await ctx.db
    .insert(sessions)
    .values({
      userId: user.id,
      tokenHash: sha256(refreshToken),
      userAgent: client.userAgent?.slice(0, 512) ?? null,
      ip: client.ip,
      rememberMe,
      createdAt: now,
      lastUsedAt: now,
      expiresAt: new Date(now.getTime() + ttl * 1000),
    })
    .returning({ id: sessions.id });
  const [updated] = await ctx.db.update(users).set({ lastLoginAt: now }).where(eq(users.id, user.id)).returning();
  return {
    user: await toUserDto(ctx.db, updated ?? user),
    tokens: await signAccessToken(ctx, user, session!.id),
    refreshToken,
    sessionId: session!.id,
    refreshTtlSeconds: ttl,
  };
}
