import { describe, expect, it } from 'vitest';
import { formatBytes, formatPlanPrice, formatPrice, visiblePlans } from '../format-plan';

/** fr-FR separates with narrow and ordinary no-break spaces: compare with plain spaces. */
const plain = (s: string) => s.replace(/[\u202f\u00a0]/g, ' ');

describe('plan formatting', () => {
  it('formats prices in the French locale', () => {
    expect(plain(formatPrice(29, 'USD'))).toBe('29 $US');
    expect(plain(formatPrice(0, 'EUR'))).toBe('0 €');
    expect(plain(formatPrice(1234.5, 'EUR'))).toBe('1 234,50 €');
    expect(plain(formatPrice(5, 'NOPE!'))).toBe('5 NOPE!');
  });

  it('adds the billing period', () => {
    expect(formatPlanPrice({ price: 99, currency: 'USD', billingPeriod: 'yearly' }).period).toBe('/year');
    expect(formatPlanPrice({ price: 99, currency: 'USD', billingPeriod: 'one-time' }).period).toBe('one-time');
  });

  it('formats byte sizes', () => {
    expect(formatBytes(5_242_880)).toBe('5 MB');
    expect(formatBytes(524_288_000)).toBe('500 MB');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(0)).toBe('0 B');
  });

  it('lists only public and active plans by ascending sortOrder', () => {
    const p = (name: string, sortOrder: number, isPublic = true, isActive = true) => ({
      name,
      sortOrder,
      isPublic,
      isActive,
    });
    expect(
      visiblePlans([p('c', 3), p('a', 1), p('hidden', 0, false), p('off', 2, true, false), p('b', 2)]).map(
        (x) => x.name,
      ),
    ).toEqual(['a', 'b', 'c']);
  });
});
