import { describe, expect, it } from 'vitest';
import { formatPercent, maskKey, matchesSearch, usageBarClass, usageLevel, usagePercent } from '../key-display';

describe('usage bar colour', () => {
  it.each([
    [0, 'ok'],
    [69.9, 'ok'],
    [70, 'warning'],
    [89.99, 'warning'],
    [90, 'critical'],
    [150, 'critical'],
  ] as const)('%s %% is %s', (percent, level) => {
    expect(usageLevel(percent)).toBe(level);
  });

  it('maps levels to green, yellow and red', () => {
    expect(usageBarClass.ok).toContain('emerald');
    expect(usageBarClass.warning).toContain('amber');
    expect(usageBarClass.critical).toContain('rose');
  });

  it('computes the percent of the monthly limit', () => {
    expect(usagePercent(50, 1000)).toBe(5);
    expect(usagePercent(10, 0)).toBe(0);
    expect(formatPercent(0)).toBe('0%');
    expect(formatPercent(0.05)).toBe('<0.1%');
    expect(formatPercent(5)).toBe('5%');
    expect(formatPercent(12.6)).toBe('13%');
  });
});

describe('key display', () => {
  it('shows 8 characters of the prefix', () => {
    expect(maskKey('dfk_live_abc').startsWith('dfk_live')).toBe(true);
    expect(maskKey('dfk_live_abc')).not.toContain('_abc');
  });

  it('ends with the last four characters when the server kept them, so keys can be told apart', () => {
    expect(maskKey('dfk_test_abc', '7f3a')).toBe(`dfk_test${'•'.repeat(12)}7f3a`);
    expect(maskKey('dfk_test_abc', 'b21c')).not.toBe(maskKey('dfk_test_abc', '7f3a'));
    expect(maskKey('dfk_test_abc', null)).toBe(`dfk_test${'•'.repeat(16)}`);
  });

  it('searches name, prefix, environment and plan, ignoring case', () => {
    const key = {
      name: 'Billing Worker',
      keyPrefix: 'dfk_abc12345',
      environment: 'production' as const,
      planName: 'pro',
      planDisplayName: 'Pro',
    };
    expect(matchesSearch(key, '  billing ')).toBe(true);
    expect(matchesSearch(key, 'ABC123')).toBe(true);
    expect(matchesSearch(key, 'prod')).toBe(true);
    expect(matchesSearch(key, 'enterprise')).toBe(false);
    expect(matchesSearch(key, '')).toBe(true);
  });
});
