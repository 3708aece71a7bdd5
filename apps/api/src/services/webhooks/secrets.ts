import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../data/db';
import { webhookSecrets } from '../../data/schema/index';

const newSecret = () => `whsec_${randomBytes(32).toString('base64url')}`;

/** The user's signing secret, made on first use. */
export async function webhookSecret(db: Db, userId: string): Promise<{ secret: string; createdAt: Date }> {
  const [row] = await db
    .insert(webhookSecrets)
    .values({ userId, secret: newSecret() })
    .onConflictDoNothing()
    .returning();
  if (row) return row;
  const [found] = await db.select().from(webhookSecrets).where(eq(webhookSecrets.userId, userId));
  return found!;
}

/** A new secret at once: webhooks sent from now on are signed with it (receivers must be given it). */
export async function rotateWebhookSecret(db: Db, userId: string): Promise<{ secret: string; createdAt: Date }> {
  const values = { secret: newSecret(), createdAt: new Date() };
  const [row] = await db
    .insert(webhookSecrets)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: webhookSecrets.userId, set: values })
    .returning();
  return row!;
}
