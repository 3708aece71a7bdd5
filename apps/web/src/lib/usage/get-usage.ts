import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { TUsageAnalytics, TUsagePeriod } from '@docflow/contracts';
import { api } from '@/lib/api-client';

/** GET /my/usage: the user's analytics over a period, with recommendations. */
export const getUsage = async (period: TUsagePeriod): Promise<TUsageAnalytics> => {
  const res = await api.get<{ data: { usage: TUsageAnalytics } }>('/my/usage', {
    query: { period, includeRecommendations: true },
  });
  return res.data.usage;
};

/** Live figures: re-read on every visit (the cached ones stay on screen meanwhile). */
export const getUsageQueryOptions = (period: TUsagePeriod) =>
  queryOptions({ queryKey: ['usage', period], queryFn: () => getUsage(period), staleTime: 0 });

/** Switching the period keeps the previous figures on screen until the new ones arrive. */
export const useUsage = (period: TUsagePeriod, opts: { enabled?: boolean } = {}) =>
  useQuery({ ...getUsageQueryOptions(period), enabled: opts.enabled ?? true, placeholderData: keepPreviousData });
