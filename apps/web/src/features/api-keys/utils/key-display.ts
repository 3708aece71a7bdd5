import type { TApiKey, TApiKeyEnvironment } from '@docflow/contracts';
import { locale } from '@/utils/format';

/** Characters of the stored prefix the card shows (spec-2 §9: prefix length 12, display 8). */
const KEY_DISPLAY_CHARS = 8;

/**
 * `dfk_test••••••••••••7f3a`: the prefix, then the secret's last four characters when the server kept them (keys
 * made before it did show the prefix alone). The last four are what tell two keys of one environment apart.
 */
export function maskKey(prefix: string, lastFour?: string | null): string {
  return `${prefix.slice(0, KEY_DISPLAY_CHARS)}${'•'.repeat(lastFour ? 12 : 16)}${lastFour ?? ''}`;
}

/** Percent of the monthly limit used, 0-100 (kept above 100 only for the label). */
export function usagePercent(used: number, limit: number): number {
  if (!limit || limit <= 0) return 0;
  return (used / limit) * 100;
}

export type UsageLevel = 'ok' | 'warning' | 'critical';

/** Spec-2 §2: green under 70 percent, yellow under 90, red otherwise. */
export function usageLevel(percent: number): UsageLevel {
  if (percent < 70) return 'ok';
  if (percent < 90) return 'warning';
  return 'critical';
}

export const usageBarClass: Record<UsageLevel, string> = {
  ok: 'bg-emerald-500',
  warning: 'bg-amber-400',
  critical: 'bg-rose-500',
};

export function formatPercent(p: number): string {
  if (p === 0) return '0%';
  if (p < 0.1) return '<0.1%';
  return `${p < 10 ? p.toFixed(1).replace(/\.0$/, '') : Math.round(p)}%`;
}

export const environmentLabel: Record<TApiKeyEnvironment, string> = {
  development: 'Development',
  staging: 'Staging',
  production: 'Production',
};

export const environmentTone: Record<TApiKeyEnvironment, 'slate' | 'amber' | 'green'> = {
  development: 'slate',
  staging: 'amber',
  production: 'green',
};

export const formatCount = (n: number): string => new Intl.NumberFormat(locale()).format(n);

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? '—'
    : d.toLocaleDateString(locale(), { year: 'numeric', month: 'short', day: 'numeric' });
}

export function formatDateTime(iso: string | null | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? '—'
    : d.toLocaleString(locale(), {
        year: 'numeric',
        month: 'short',
        day: 'numeric',
        hour: '2-digit',
        minute: '2-digit',
      });
}

/** The plan name a key shows: its custom plan's, else its plan's. */
export function keyPlanName(key: Pick<TApiKey, 'planDisplayName' | 'customPlan'>): string {
  return key.customPlan?.displayName ?? key.planDisplayName;
}

/** The search box matches name, prefix, environment and plan, case-insensitively. */
export function matchesSearch(
  key: Pick<TApiKey, 'name' | 'keyPrefix' | 'environment' | 'planDisplayName' | 'planName'>,
  term: string,
): boolean {
  const q = term.trim().toLowerCase();
  if (!q) return true;
  return [key.name, key.keyPrefix, key.environment, key.planDisplayName, key.planName].some((v) =>
    (v ?? '').toLowerCase().includes(q),
  );
}
