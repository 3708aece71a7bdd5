import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { TApiKeyEnvironment, TCustomLimits, TUserRole } from '@docflow/contracts';
import { openTestDatabase, type TestApp } from '../helper';
import type { Database } from '../../src/data/db';
import { sessions, users } from '../../src/data/schema/index';
import { sha256 } from '../../src/lib/tokens';
import { renewSubscription, startSubscription } from '../../src/services/subscriptions/index';
import { createApiKey } from '../../src/services/api-keys/index';
import { createTestApp } from './test-app';

export interface CreateUserWithApiKeyOptions {
  plan?: 'free' | 'pro' | 'enterprise';
  environment?: TApiKeyEnvironment;
  email?: string;
  role?: TUserRole;
  /** Per-key limits (an admin "custom" key) instead of the plan's: small figures keep limit tests quick. */
  customLimits?: Partial<TCustomLimits>;
  /** Paid plans: start a 14-day trial (default) or grant an active subscription. */
  subscription?: 'trial' | 'active';
}

export interface UserWithApiKey {
  userId: string;
  /** A dashboard access token for the user (for /my/* routes). */
  accessToken: string;
  apiKey: string;
  keyId: string;
}

/** Create an active verified user directly in the database. Returns its id and a dashboard access token. */
export async function createTestUser(t: TestApp, opts: { email?: string; role?: TUserRole; name?: string } = {}) {
  const email = opts.email ?? `user-${randomBytes(6).toString('hex')}@example.test`;
  const [user] = await t.app.db
    .insert(users)
    .values({
      email,
      name: opts.name ?? 'Test User',
      passwordHash: 'not-a-hash:test-user-cannot-log-in',
      role: opts.role ?? 'user',
      emailVerifiedAt: new Date(),
      registrationSource: 'web',
    })
    .returning();
  const [session] = await t.app.db
    .insert(sessions)
    .values({
      userId: user!.id,
      tokenHash: sha256(randomBytes(32).toString('hex')),
      expiresAt: new Date(Date.now() + 86_400_000),
    })
    .returning();
  const accessToken = await t.app.accessTokens.sign({ sub: user!.id, role: user!.role, sid: session!.id });
  return { userId: user!.id, email, accessToken };
}

/**
 * A verified user holding an API key on `plan` (default free): paid plans get a trial (or an active subscription)
 * through the subscriptions service, the key comes from the api-keys service, exactly as the routes do it.
 */
export async function createUserWithApiKey(
  t: TestApp,
  opts: CreateUserWithApiKeyOptions = {},
): Promise<UserWithApiKey> {
  const plan = opts.plan ?? 'free';
  const { userId, accessToken } = await createTestUser(t, { email: opts.email, role: opts.role });
  if (plan !== 'free') {
    if (opts.subscription === 'active') await renewSubscription(t.app.db, userId, plan, null);
    else await startSubscription(t.app.db, userId, plan);
  }
  const custom: TCustomLimits | undefined = opts.customLimits
    ? {
        maxRequestsPerMinute: 1000,
        maxRequestsPerHour: 10_000,
        maxRequestsPerMonth: 100_000,
        maxFileSize: 50 * 1_048_576,
        maxPagesPerPdf: 500,
        burstLimit: null,
        allowedEndpoints: ['pdf', 'conversion'],
        features: [],
        validityDays: null,
        ...opts.customLimits,
      }
    : undefined;
  const { row, key } = await createApiKey(t.app.db, userId, {
    name: `Test key ${plan}`,
    planName: plan,
    environment: opts.environment ?? 'development',
    customLimits: custom,
  });
  return { userId, accessToken, apiKey: key, keyId: row.id };
}

/**
 * buildTestApp with a chance to add test-only routes before the app is ready (e.g. a tiny route behind
 * `app.processingGuard('pdf')`), and to share another app's database (two API nodes on one database).
 */
export function buildTestAppWith(
  setup: (app: FastifyInstance) => void | Promise<void>,
  opts: { env?: Record<string, string>; database?: Database } = {},
): Promise<TestApp> {
  return createTestApp({ env: opts.env, database: opts.database ?? (() => openTestDatabase()), routes: setup });
}
