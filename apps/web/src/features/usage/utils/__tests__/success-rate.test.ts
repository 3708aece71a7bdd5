import { describe, expect, it } from 'vitest';
import { endpointSuccessBadge, rateOrDefault, successRateLabel } from '../success-rate';

describe('success-rate labels (per-key table)', () => {
  it.each([
    [100, 'Excellent'],
    [95.01, 'Excellent'],
    [95, 'Good'],
    [90.5, 'Good'],
    [90, 'Needs attention'],
    [0, 'Needs attention'],
  ] as const)('%s → %s', (rate, label) => {
    expect(successRateLabel(rate)).toBe(label);
  });
});

describe('endpoint success badge (top endpoints)', () => {
  it.each([
    [100, 'success'],
    [95.5, 'success'],
    [95, 'warning'],
    [50.1, 'warning'],
    [50, 'danger'],
    [0, 'danger'],
  ] as const)('%s → %s', (rate, badge) => {
    expect(endpointSuccessBadge(rate)).toBe(badge);
  });

  it('reads a missing rate as 100', () => {
    expect(rateOrDefault(undefined)).toBe(100);
    expect(rateOrDefault(Number.NaN)).toBe(100);
    expect(rateOrDefault(42)).toBe(42);
  });
});
