import { describe, expect, it } from 'vitest';
import { sortRecommendations } from '../recommendations';

describe('recommendations', () => {
  it('orders by priority high, medium, low and keeps at most the limit', () => {
    const r = (title: string, priority: 'high' | 'medium' | 'low') => ({ title, message: '', priority });
    const sorted = sortRecommendations([r('a', 'low'), r('b', 'high'), r('c', 'medium'), r('d', 'high')], 2);
    expect(sorted.map((x) => x.title)).toEqual(['b', 'd']);
    expect(sortRecommendations(undefined)).toEqual([]);
  });
});
