import type { TBillingPeriod, TPlan } from '@docflow/contracts';
import en from '@/i18n/locales/en.json';
import { localised } from '@/i18n/localised';

/** Prices in the French locale by default (spec-2 §9): `29 $US`, `0 €`, `12,50 $US`; `en-US` gives `$29`. */
export function formatPrice(price: number, currency: string, locale = 'fr-FR'): string {
  const whole = Number.isInteger(price);
  try {
    return new Intl.NumberFormat(locale, {
      style: 'currency',
      currency,
      minimumFractionDigits: whole ? 0 : 2,
      maximumFractionDigits: 2,
    }).format(price);
  } catch {
    return `${new Intl.NumberFormat(locale).format(price)} ${currency}`;
  }
}

export const billingPeriodLabel: Record<TBillingPeriod, string> = localised(en.billingPeriod, 'billingPeriod');

export function formatPlanPrice(plan: Pick<TPlan, 'price' | 'currency' | 'billingPeriod'>): {
  amount: string;
  period: string;
} {
  return {
    amount: formatPrice(plan.price, plan.currency),
    period: billingPeriodLabel[plan.billingPeriod] ?? plan.billingPeriod,
  };
}

/** 5242880 → `5 MB`, 524288000 → `500 MB`, 1073741824 → `1 GB`. */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 B';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let i = 0;
  let v = bytes;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i += 1;
  }
  const rounded = v >= 10 || Number.isInteger(v) ? Math.round(v) : Math.round(v * 10) / 10;
  return `${rounded} ${units[i]}`;
}

export const formatCount = (n: number): string => new Intl.NumberFormat('en-US').format(n);

/** The plans the page lists: public and active, in ascending sortOrder (spec-1 §2). */
export function visiblePlans<T extends Pick<TPlan, 'isPublic' | 'isActive' | 'sortOrder'>>(plans: readonly T[]): T[] {
  return plans.filter((p) => p.isPublic && p.isActive).sort((a, b) => a.sortOrder - b.sortOrder);
}

export const endpointGroupLabel: Record<string, string> = {
  conversion: 'Conversion',
  pdf: 'PDF',
  ocr: 'OCR',
  qrcode: 'QR Codes',
  batch: 'Batch',
  webhook: 'Webhooks',
};
