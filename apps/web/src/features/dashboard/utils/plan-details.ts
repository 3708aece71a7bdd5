import { tr } from '@/i18n/localised';
import { formatNumber } from '@/utils/format';
/** A monthly limit of 0 or less (or none) means no cap. */
export const isUnlimited = (limit: number | null | undefined): boolean => !limit || limit <= 0;

/** "1,234 / 100,000" or "1,234 / Unlimited". */
export function requestsOverLimit(used: number, limit: number | null | undefined): string {
  return `${formatNumber(used)} / ${isUnlimited(limit) ? tr('planDetails.unlimited') : formatNumber(limit as number)}`;
}
