import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import type { ZDashboardStats } from '@docflow/contracts';
import { api } from '@/lib/api-client';

export type DashboardStats = z.infer<typeof ZDashboardStats>;

/** GET /my/dashboard: the user's figures for the dashboard (today, this month, keys, the 30-day series). */
export const getDashboard = async (): Promise<DashboardStats> => {
  const res = await api.get<{ data: { dashboard: DashboardStats } }>('/my/dashboard');
  return res.data.dashboard;
};

/** Live figures: re-read on every visit. */
export const getDashboardQueryOptions = () =>
  queryOptions({ queryKey: ['dashboard'], queryFn: getDashboard, staleTime: 0 });

export const useDashboard = (opts: { enabled?: boolean } = {}) =>
  useQuery({ ...getDashboardQueryOptions(), enabled: opts.enabled ?? true });
