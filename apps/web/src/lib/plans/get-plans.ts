import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TPlan } from '@docflow/contracts';
import { api } from '@/lib/api-client';

/** GET /plans: the plan catalogue. The plans page shows its own error state (spec-1 §8: no toast). */
export const getPlans = async (): Promise<TPlan[]> => {
  const res = await api.get<{ data: { plans: TPlan[] } }>('/plans', { silent: true });
  return res.data.plans;
};

export const getPlansQueryOptions = () => queryOptions({ queryKey: ['plans'], queryFn: getPlans });

/** The plans page loads the catalogue on entry (spec-1 §2): mounted again, it re-reads it. */
export const usePlans = (opts: { refetchOnMount?: boolean | 'always' } = {}) =>
  useQuery({ ...getPlansQueryOptions(), refetchOnMount: opts.refetchOnMount ?? true });
