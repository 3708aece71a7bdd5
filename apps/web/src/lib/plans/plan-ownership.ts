import type { TApiKey, TPlan, TUser } from '@docflow/contracts';

/** The statuses of a user plan entry that count as holding the plan (a running trial included). */
const OWNING_STATUSES = new Set(['active', 'trial']);

export const FREE_PLAN = 'free';

export interface PlanOwnershipInput {
  user: Pick<TUser, 'plans' | 'activeplan'> | null | undefined;
  /** The plans catalogue, for prices (the most expensive owned plan) and display names. */
  plans?: ReadonlyArray<Pick<TPlan, 'name' | 'displayName' | 'price'>>;
  apiKeys?: ReadonlyArray<Pick<TApiKey, 'planName' | 'planDisplayName' | 'isActive'>>;
}

export interface PlanOwnership {
  /** Owned plan names, without duplicates: the user's held plans first, then those of active keys. */
  owned: string[];
  /** The plan the account runs on. */
  primary: string;
  primaryDisplayName: string;
  /** How many owned plans there are besides the primary one. */
  others: number;
  /** The badge text: the primary plan's name, plus the count of the others (`Pro +1`). */
  label: string;
  hasMultiple: boolean;
}

function titleCase(name: string): string {
  return name ? name.charAt(0).toUpperCase() + name.slice(1) : name;
}

/**
 * Plan ownership (spec-1 §4, spec-2 §4), one pure function:
 * - owned: the user's plan entries that are active with status active or trial, plus the plans of the user's
 *   active API keys;
 * - primary: the user's `activeplan` if set, else the most expensive owned plan, else free;
 * - label: the primary plan's name plus a count of the others when several are owned.
 */
export function resolvePlanOwnership({ user, plans = [], apiKeys = [] }: PlanOwnershipInput): PlanOwnership {
  const owned: string[] = [];
  const add = (name: string | null | undefined) => {
    if (name && !owned.includes(name)) owned.push(name);
  };
  for (const p of user?.plans ?? []) if (p.isActive && OWNING_STATUSES.has(p.status)) add(p.planName);
  for (const k of apiKeys) if (k.isActive) add(k.planName);

  const price = (name: string) => plans.find((p) => p.name === name)?.price ?? 0;
  let primary = user?.activeplan || '';
  if (!primary && owned.length > 0) {
    primary = owned.reduce((best, name) => (price(name) > price(best) ? name : best), owned[0]!);
  }
  if (!primary) primary = FREE_PLAN;

  const others = owned.filter((n) => n !== primary).length;
  const primaryDisplayName =
    plans.find((p) => p.name === primary)?.displayName ??
    user?.plans?.find((p) => p.planName === primary)?.planDisplayName ??
    apiKeys.find((k) => k.planName === primary)?.planDisplayName ??
    titleCase(primary);

  return {
    owned,
    primary,
    primaryDisplayName,
    others,
    label: others > 0 ? `${primaryDisplayName} +${others}` : primaryDisplayName,
    hasMultiple: others > 0,
  };
}

/**
 * Whether a plan counts as the user's on the plans page and in the key form: owned, or the primary plan (the free
 * fallback of an account that holds nothing yet runs on free).
 */
export function ownsPlan(ownership: Pick<PlanOwnership, 'owned' | 'primary'>, planName: string): boolean {
  return ownership.owned.includes(planName) || ownership.primary === planName;
}
