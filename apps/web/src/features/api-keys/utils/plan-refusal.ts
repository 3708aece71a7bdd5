import type { TApiKey, TPlan, TUser } from '@docflow/contracts';
import { ApiError } from '@/lib/api-client';
import { FREE_PLAN } from '@/lib/plans/plan-ownership';

/**
 * Why the server would refuse a new key on a plan (apps/api services/api-keys createApiKey), known before asking:
 * - notHeld: a paid plan needs a live trial or subscription of the user's own (a key kept on it does not count);
 * - ended: the trial or subscription ran out (on `endedAt`);
 * - keyLimit: the user already holds the plan's `maxApiKeysPerUser` standard keys on it.
 */
export type PlanRefusal =
  { reason: 'notHeld' } | { reason: 'ended'; endedAt: string | null } | { reason: 'keyLimit'; max: number };

export interface PlanRefusalInput {
  user: Pick<TUser, 'plans'> | null | undefined;
  keys: ReadonlyArray<Pick<TApiKey, 'planName' | 'keyType'>>;
  now?: Date;
}

const LIVE = new Set(['active', 'trial']);

export function planRefusal(
  plan: Pick<TPlan, 'name' | 'maxApiKeysPerUser'>,
  { user, keys, now = new Date() }: PlanRefusalInput,
): PlanRefusal | null {
  if (plan.name !== FREE_PLAN) {
    const held = user?.plans?.find((p) => p.planName === plan.name && p.isActive);
    if (!held) return { reason: 'notHeld' };
    const ended = held.expiresAt ? new Date(held.expiresAt).getTime() <= now.getTime() : false;
    if (ended || held.status === 'expired') return { reason: 'ended', endedAt: held.expiresAt ?? null };
    if (!LIVE.has(held.status)) return { reason: 'notHeld' };
  }
  const onPlan = keys.filter((k) => k.planName === plan.name && k.keyType === 'standard').length;
  if (onPlan >= plan.maxApiKeysPerUser) return { reason: 'keyLimit', max: plan.maxApiKeysPerUser };
  return null;
}

/** The refusals of a key creation that are about the plan chosen: shown beside the plan, not in a toast. */
const PLAN_CODES = new Set(['PLAN_NOT_OWNED', 'KEY_LIMIT_REACHED', 'RATE_LIMIT_EXCEEDED', 'NOT_FOUND']);

/** The server's words (in the interface's language) when it refused the key because of its plan; else undefined. */
export function planErrorOf(err: unknown): string | undefined {
  if (!(err instanceof ApiError) || !PLAN_CODES.has(err.code)) return undefined;
  const planName = (err.details as { planName?: unknown } | undefined)?.planName;
  if (typeof planName !== 'string' && err.code !== 'NOT_FOUND') return undefined;
  return err.serverMessage ?? err.message;
}
