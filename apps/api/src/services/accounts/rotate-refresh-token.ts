import { and, eq, isNull, sql } from 'drizzle-orm';
import type { TTokens } from '@docflow/contracts';
import { sessions, sessionUsedTokens, users } from '../../data/schema/index';
import { AppError } from '../../lib/app-error';
import { randomToken, sha256 } from '../../lib/tokens';
import { recordAudit } from './audit';
import type { AccountContext, ClientInfo } from './context';
import { refreshTtlSeconds, signAccessToken } from './start-session';

type Outcome =
  | { kind: 'rotated'; tokens: TTokens; refreshToken: string; sessionId: string; refreshTtlSeconds: number }
  | { kind: 'reuse'; sessionId: string; userId: string }
  | { kind: 'refused'; error: AppError };

const invalid = (message: string) => new AppError('INVALID_TOKEN', message);

/**
 * Exchange a refresh token for a new pair. Every use rotates the refresh token: the session keeps only the hash of the
 * newest one, and each spent hash goes to session_used_tokens. A spent token presented again means it was copied —
 * the whole session is revoked ('reuse_detected'), so neither the thief nor the holder of the newer token can go on
 * (save the one case `sessionOfResentToken` describes).
 * Each use also extends the session by its refresh life (sliding expiry), never past SESSION_MAX_DAYS after sign-in.
 */
export async function rotateRefreshToken(
  ctx: AccountContext,
  refreshToken: string,
  client: ClientInfo,
): Promise<{ tokens: TTokens; refreshToken: string; sessionId: string; refreshTtlSeconds: number }> {
  const hash = sha256(refreshToken);
  const outcome = await ctx.db.transaction(async (tx): Promise<Outcome> => {
    // FOR UPDATE: two refreshes with the same token take turns; the second no longer matches and is judged below as
    // a spent token.
    const [session] = await tx.select().from(sessions).where(eq(sessions.tokenHash, hash)).for('update');
    if (session) return rotateSession(ctx, tx, session, hash);

    const [used] = await tx.select().from(sessionUsedTokens).where(eq(sessionUsedTokens.tokenHash, hash));
    if (used) {
      const resent = await sessionOfResentToken(ctx, tx, used);
      if (resent) return rotateSession(ctx, tx, resent, resent.tokenHash);
      const [revoked] = await tx
        .update(sessions)
        .set({ revokedAt: new Date(), revokedReason: 'reuse_detected' })
        .where(and(eq(sessions.id, used.sessionId), isNull(sessions.revokedAt)))
        .returning({ userId: sessions.userId });
      const [owner] = revoked
        ? [revoked]
        : await tx.select({ userId: sessions.userId }).from(sessions).where(eq(sessions.id, used.sessionId));
      // Returned, not thrown: the revocation must commit.
      return { kind: 'reuse', sessionId: used.sessionId, userId: owner?.userId ?? '' };
    }
    return { kind: 'refused', error: invalid('Invalid refresh token. Please sign in again.') };
  });

  if (outcome.kind === 'refused') throw outcome.error;
  if (outcome.kind === 'reuse') {
    await recordAudit(ctx.db, {
      userId: outcome.userId || null,
      action: 'refresh_token_reuse',
      ip: client.ip,
      details: { sessionId: outcome.sessionId },
    });
    throw invalid(
      'This refresh token was already used. For your security the session has been signed out; please sign in again.',
    );
  }
  return outcome;
}

type Tx = Parameters<Parameters<AccountContext['db']['transaction']>[0]>[0];
type SessionRow = typeof sessions.$inferSelect;

/** Rotate a live session's refresh token (`spentHash` goes to the spent list), or say why it may not be refreshed. */
async function rotateSession(ctx: AccountContext, tx: Tx, session: SessionRow, spentHash: string): Promise<Outcome> {
  if (session.revokedAt)
    return { kind: 'refused', error: invalid('This session has been signed out. Please sign in again.') };
  if (session.expiresAt <= new Date())
    return { kind: 'refused', error: invalid('Your session has expired. Please sign in again.') };
  const [user] = await tx.select().from(users).where(eq(users.id, session.userId));
  if (!user) return { kind: 'refused', error: invalid('This account no longer exists.') };
  if (!user.isActive)
    return {
      kind: 'refused',
      error: new AppError(
        'ACCOUNT_DISABLED',
        'This account has been deactivated. Contact support if you think this is a mistake.',
      ),
    };

  // However often it is refreshed, a session ends SESSION_MAX_DAYS after its sign-in: a stolen refresh token
  // cannot keep one alive for ever.
  const now = new Date();
  const hardEnd = session.createdAt.getTime() + ctx.config.SESSION_MAX_DAYS * 86_400_000;
  if (hardEnd <= now.getTime())
    return {
      kind: 'refused',
      error: invalid('Your session has reached its maximum length. Please sign in again.'),
    };
  const next = randomToken();
  const ttl = Math.min(refreshTtlSeconds(ctx, session.rememberMe), Math.floor((hardEnd - now.getTime()) / 1000));
  await tx
    .update(sessions)
    .set({
      tokenHash: sha256(next),
      generation: sql`${sessions.generation} + 1`,
      lastUsedAt: now,
      expiresAt: new Date(now.getTime() + ttl * 1000),
    })
    .where(eq(sessions.id, session.id));
  await tx.insert(sessionUsedTokens).values({ tokenHash: spentHash, sessionId: session.id, usedAt: now });
  return {
    kind: 'rotated',
    tokens: await signAccessToken(ctx, user, session.id),
    refreshToken: next,
    sessionId: session.id,
    refreshTtlSeconds: ttl,
  };
}

/**
 * A spent token sent again by its own browser, not a copy: one the session spent within REFRESH_REUSE_GRACE_SECONDS.
 * That happens when a page is left or reloaded while its refresh is in flight: the server rotated, but the browser
 * dropped the answer and its new cookie, so the next page sends the old token (and may be left in flight too, so the
 * same token can come back after two or three rotations). Such a token gets a fresh pair (and the pairs the browser
 * never received are spent); a token spent longer ago is reuse and ends the session. The session is returned locked.
 */
async function sessionOfResentToken(
  ctx: AccountContext,
  tx: Tx,
  used: typeof sessionUsedTokens.$inferSelect,
): Promise<SessionRow | undefined> {
  const grace = ctx.config.REFRESH_REUSE_GRACE_SECONDS * 1000;
  if (grace <= 0 || Date.now() - used.usedAt.getTime() > grace) return undefined;
  const [session] = await tx.select().from(sessions).where(eq(sessions.id, used.sessionId)).for('update');
  return session && !session.revokedAt ? session : undefined;
}
