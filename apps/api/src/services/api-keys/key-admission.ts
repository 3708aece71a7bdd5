import { ANY_ENDPOINT_GROUP, type TEndpointGroup } from '@docflow/contracts';
import { AppError } from '../../lib/app-error';
import { effectiveLimits } from './index';
import { planState, type KeyRecord } from './lookup';

/**
 * Whether a key may run work now, whatever the door: a synchronous call (api-key-auth, plan-gate) and a queued job
 * when it starts (a job admitted yesterday runs today only if the key and its account may still call) ask the same
 * questions here, so the answers cannot drift apart.
 */

const day = (d: Date) => d.toISOString().slice(0, 10);

/** The key itself and its account: deleted, disabled, expired, or its owner deactivated. */
export function keyStateRefusal(rec: KeyRecord, now = new Date()): AppError | null {
  if (!rec.isActive) return new AppError('INVALID_API_KEY', 'This API key is disabled');
  if (rec.deleted) return new AppError('INVALID_API_KEY', 'This API key was deleted');
  if (rec.expiresAt && rec.expiresAt <= now)
    return new AppError('INVALID_API_KEY', `This API key expired on ${day(rec.expiresAt)}`);
  if (!rec.userActive) return new AppError('ACCOUNT_DISABLED', 'The account owning this API key has been deactivated');
  return null;
}

/** The key's plan: a paid plan needs a live trial or subscription. */
export function planStateRefusal(rec: KeyRecord, now = new Date()): AppError | null {
  const plan = planState(rec, now);
  if (plan === 'ok') return null;
  const end = rec.subscription?.expiresAt;
  return new AppError(
    'PLAN_EXPIRED',
    plan === 'expired'
      ? `The ${rec.plan.displayName} plan of this key ${rec.subscription?.status === 'trial' ? 'trial ' : ''}ended${end ? ` on ${day(end)}` : ''}: its keys are suspended until an administrator renews it. Keys on the Free plan keep working.`
      : `This key's ${rec.plan.displayName} plan is not active on your account: start its trial or ask an administrator.`,
    { details: { planName: rec.plan.name, expiresAt: end ? end.toISOString() : null } },
  );
}

/** The groups a call draws on that the key's plan (or custom limits) leaves out, in the order asked. */
export function missingGroups(allowed: readonly TEndpointGroup[], groups: readonly TEndpointGroup[]): TEndpointGroup[] {
  return [...new Set(groups)].filter((g) => !allowed.includes(g));
}

/** 403 for the first group the key may not use; `upgrade` names the cheapest public plan that has it. */
export function groupRefusal(
  rec: KeyRecord,
  allowed: readonly TEndpointGroup[],
  group: TEndpointGroup,
  upgrade?: { name: string; displayName: string },
): AppError {
  return new AppError(
    'ENDPOINT_NOT_ALLOWED',
    `The ${group} endpoints are not included in ${rec.customLimits ? 'this custom key' : `the ${rec.plan.displayName} plan`}` +
      (upgrade ? `; they are available from the ${upgrade.displayName} plan` : ''),
    {
      details: {
        group,
        planName: rec.plan.name,
        requiredPlan: upgrade?.name ?? null,
        allowedEndpoints: [...allowed],
      },
    },
  );
}

/** Why work admitted earlier (a queued job) may not start now: its key, its account, its plan or the plan's groups. */
export function startRefusal(rec: KeyRecord, group: string, now = new Date()): AppError | null {
  const refused = keyStateRefusal(rec, now) ?? planStateRefusal(rec, now);
  if (refused) return refused;
  const allowed = effectiveLimits(rec.plan, rec.customLimits).allowedEndpoints;
  if (group === ANY_ENDPOINT_GROUP || allowed.includes(group as TEndpointGroup)) return null;
  return groupRefusal(rec, allowed, group as TEndpointGroup);
}
