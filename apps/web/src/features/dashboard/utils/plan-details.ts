/** A monthly limit of 0 or less (or none) means no cap. */
export const isUnlimited = (limit: number | null | undefined): boolean => !limit || limit <= 0;

/** "1,234 / 100,000" or "1,234 / Unlimited". */
export function requestsOverLimit(used: number, limit: number | null | undefined): string {
  const fmt = (n: number) => new Intl.NumberFormat('en-US').format(n);
  return `${fmt(used)} / ${isUnlimited(limit) ? 'Unlimited' : fmt(limit as number)}`;
}
