import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../data/db';
import { webhookSecrets } from '../../data/schema/index';
import { canonicalSecret } from './signature';

/** Standard Webhooks' form: `whsec_` + standard base64 of 32 random bytes (the HMAC key). */
const newSecret = () => `whsec_${randomBytes(32).toString('base64')}`;

export interface WebhookSecret {
  /** As shown to its owner and as the Standard Webhooks signature is keyed: `whsec_` + base64 of the key. */
  secret: string;
  /**
   * The text as stored, which keys the deprecated X-Webhook-Signature: the same as `secret` for secrets made now;
   * a secret made before was written in base64url, and receivers of the old header were given it that way.
   */
  storedSecret: string;
  createdAt: Date;
}

const view = (row: { secret: string; createdAt: Date }): WebhookSecret => ({
  secret: canonicalSecret(row.secret),
  storedSecret: row.secret,
  createdAt: row.createdAt,
});

/** The user's signing secret, made on first use. */
export async function webhookSecret(db: Db, userId: string): Promise<WebhookSecret> {
  const [row] = await db
    .insert(webhookSecrets)
    .values({ userId, secret: newSecret() })
    .onConflictDoNothing()
    .returning();
  if (row) return view(row);
  const [found] = await db.select().from(webhookSecrets).where(eq(webhookSecrets.userId, userId));
  return view(found!);
}

/** A new secret at once: webhooks sent from now on are signed with it (receivers must be given it). */
export async function rotateWebhookSecret(db: Db, userId: string): Promise<WebhookSecret> {
  const values = { secret: newSecret(), createdAt: new Date() };
  const [row] = await db
    .insert(webhookSecrets)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: webhookSecrets.userId, set: values })
    .returning();
  return view(row!);
}
