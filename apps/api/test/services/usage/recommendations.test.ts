import { describe, expect, it } from 'vitest';
import { formatDuration, recommendations, type UsageFacts } from '../../../src/services/usage/recommendations';

const facts: UsageFacts = {
  keys: 1,
  total: 10,
  successRate: 100,
  avgResponseTime: 34334,
  breakdown: [],
  primary: { name: 'pro', displayName: 'Pro' },
  userUtilization: 10,
  unused: [],
};

describe('formatDuration', () => {
  it('writes milliseconds, seconds and minutes with their units', () => {
    expect(formatDuration(850.4)).toBe('850 ms');
    expect(formatDuration(34334)).toBe('34.3 s');
    expect(formatDuration(2000)).toBe('2 s');
    expect(formatDuration(125_000)).toBe('2 min 5 s');
    expect(formatDuration(120_000)).toBe('2 min');
  });
});

describe('recommendations', () => {
  it('gives slow responses a code, the raw figure and a formatted English text', () => {
    const [slow] = recommendations(facts);
    expect(slow).toMatchObject({ code: 'slow-responses', params: { ms: 34334 }, priority: 'medium' });
    expect(slow!.message).toContain('Your calls averaged 34.3 s.');
    expect(slow!.message).not.toContain('34334');
  });
  it('names the key of an unused key and of a quota almost used', () => {
    const out = recommendations({
      ...facts,
      avgResponseTime: 100,
      unused: ['Idle'],
      breakdown: [{ keyName: 'Busy', planName: 'Pro', utilization: 91 }],
    });
    expect(out.map((r) => [r.code, r.params])).toEqual([
      ['key-quota', { name: 'Busy', percent: 91, plan: 'Pro' }],
      ['unused-key', { name: 'Idle' }],
    ]);
  });
});
