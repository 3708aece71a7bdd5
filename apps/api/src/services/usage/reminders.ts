import type { Db } from '../../data/db';
import type { KeyRecord } from '../api-keys/lookup';
import type { LimitDecision } from '../limits/index';
import { notify } from '../notifications';
import { remindExpiringTrials, TRIAL_REMINDER_DAYS } from '../subscriptions/index';

const USAGE_WARN_RATIO = 0.8;
const TRIAL_REMINDER_EVERY_MS = 3_600_000;

/**
 * Notifications a counted call may trigger: 80 % of a monthly quota used (once per quota and month on this node; the
 * notification's dedupe key makes it once overall), and a trial ending soon (looked at once an hour per subscription).
 * Fire and forget: a failing notification never fails the call.
 */
export function createUsageReminders(db: Db) {
  const warned = new Set<string>();
  const reminded = new Map<string, number>();

  return function afterCountedCall(rec: KeyRecord, decision: LimitDecision, monthly: number): void {
    if (decision.monthUsed >= Math.ceil(monthly * USAGE_WARN_RATIO)) {
      const month = new Date().toISOString().slice(0, 7);
      // One warning per quota: the subscription's (all its keys together) or a custom key's own.
      const dedupeKey = `usage-80:${rec.customLimits ? rec.keyId : `${rec.userId}:${rec.plan.id}`}:${month}`;
      if (!warned.has(dedupeKey)) {
        warned.add(dedupeKey);
        const share = `${Math.floor((decision.monthUsed / monthly) * 100)} %`;
        const figures = `(${decision.monthUsed} / ${monthly} requêtes)`;
        void notify(db, rec.userId, {
          type: 'warning',
          title: 'Quota mensuel bientôt atteint',
          message: rec.customLimits
            ? `La clé « ${rec.name} » a utilisé ${share} de son quota mensuel ${figures}.`
            : `Vos clés du forfait ${rec.plan.displayName} ont utilisé ${share} de son quota mensuel ${figures}.`,
          ...(rec.customLimits
            ? {
                code: 'usage.key-quota-80',
                params: {
                  name: rec.name,
                  percent: Math.floor((decision.monthUsed / monthly) * 100),
                  used: decision.monthUsed,
                  limit: monthly,
                },
              }
            : {
                code: 'usage.plan-quota-80',
                params: {
                  plan: rec.plan.displayName,
                  percent: Math.floor((decision.monthUsed / monthly) * 100),
                  used: decision.monthUsed,
                  limit: monthly,
                },
              }),
          dedupeKey,
        });
      }
    }
    const sub = rec.subscription;
    if (
      sub?.status === 'trial' &&
      sub.expiresAt &&
      sub.expiresAt.getTime() - Date.now() <= TRIAL_REMINDER_DAYS * 86_400_000
    ) {
      const last = reminded.get(sub.id) ?? 0;
      if (Date.now() - last > TRIAL_REMINDER_EVERY_MS) {
        reminded.set(sub.id, Date.now());
        void remindExpiringTrials(db, rec.userId);
      }
    }
  };
}
