import type { TRecommendation } from '@docflow/contracts';

const rank: Record<TRecommendation['priority'], number> = { high: 0, medium: 1, low: 2 };

/** Ordered by priority high, medium, low (stable within one priority); at most `limit`. */
export function sortRecommendations(items: readonly TRecommendation[] | undefined, limit?: number): TRecommendation[] {
  const sorted = [...(items ?? [])].sort((a, b) => (rank[a.priority] ?? 3) - (rank[b.priority] ?? 3));
  return limit === undefined ? sorted : sorted.slice(0, limit);
}
