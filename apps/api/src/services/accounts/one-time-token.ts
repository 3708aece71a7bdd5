import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Db } from '../../data/db';
import { emailVerifications, passwordResets } from '../../data/schema/index';
import { randomToken, sha256 } from '../../lib/tokens';

/** The two kinds of single-use e-mail links; both tables have the same shape. */
type TokenTable = typeof emailVerifications | typeof passwordResets;

export type TokenLookup =
  | { status: 'valid'; id: string; userId: string }
  | { status: 'used' | 'expired'; id: string; userId: string }
  | { status: 'unknown' };

/**
 * Issue a new link token for a user, replacing any unused one (an older link stops working). Only the SHA-256 is
 * stored; the clear token goes into the mail and nowhere else.
 */
export async function issueOneTimeToken(db: Db, table: TokenTable, userId: string, ttlMs: number): Promise<string> {
  const token = randomToken();
  await db.delete(table).where(and(eq(table.userId, userId), isNull(table.usedAt)));
  await db.insert(table).values({ userId, tokenHash: sha256(token), expiresAt: new Date(Date.now() + ttlMs) });
  return token;
}

export async function lookUpOneTimeToken(db: Db, table: TokenTable, token: string): Promise<TokenLookup> {
  const [row] = await db
    .select()
    .from(table)
    .where(eq(table.tokenHash, sha256(token)));
  if (!row) return { status: 'unknown' };
  if (row.usedAt) return { status: 'used', id: row.id, userId: row.userId };
  if (row.expiresAt <= new Date()) return { status: 'expired', id: row.id, userId: row.userId };
  return { status: 'valid', id: row.id, userId: row.userId };
}

/** Mark the token used; false if another request used it first (single use even under a race). */
export async function consumeOneTimeToken(db: Db, table: TokenTable, id: string): Promise<boolean> {
  const rows = await db
    .update(table)
    .set({ usedAt: new Date() })
    .where(and(eq(table.id, id), isNull(table.usedAt)))
    .returning({ id: table.id });
  return rows.length > 0;
}

/** When the user's last token of this kind was issued (for the resend cool-down). */
export async function lastTokenIssuedAt(db: Db, table: TokenTable, userId: string): Promise<Date | undefined> {
  const [row] = await db
    .select({ createdAt: table.createdAt })
    .from(table)
    .where(eq(table.userId, userId))
    .orderBy(desc(table.createdAt))
    .limit(1);
  return row?.createdAt;
}

/** After a successful use: the user's other unused links of this kind stop working. */
export async function discardUnusedTokens(db: Db, table: TokenTable, userId: string): Promise<void> {
  await db.delete(table).where(and(eq(table.userId, userId), isNull(table.usedAt)));
}
