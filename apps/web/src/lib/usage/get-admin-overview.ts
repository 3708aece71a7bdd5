import { queryOptions, useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import type { ZAdminOverview } from '@docflow/contracts';
import { api } from '@/lib/api-client';

export type AdminOverview = z.infer<typeof ZAdminOverview>;

/** GET /admin/stats/overview: the global figures admins see instead of their own (users, keys, requests, revenue). */
export const getAdminOverview = async (): Promise<AdminOverview> => {
  const res = await api.get<{ data: { overview: AdminOverview } }>('/admin/stats/overview');
  return res.data.overview;
};

export const getAdminOverviewQueryOptions = () =>
  queryOptions({ queryKey: ['admin', 'overview'], queryFn: getAdminOverview, staleTime: 30_000 });

export const useAdminOverview = (opts: { enabled?: boolean } = {}) =>
  useQuery({ ...getAdminOverviewQueryOptions(), enabled: opts.enabled ?? true });
