import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TServiceInfo } from '@docflow/contracts';
import { api } from '@/lib/api-client';

/** GET /service-info: how long job results are kept and the trial's length, as the server is configured. */
export const getServiceInfo = async (): Promise<TServiceInfo> => {
  const res = await api.get<{ data: { service: TServiceInfo } }>('/service-info', { silent: true });
  return res.data.service;
};

export const getServiceInfoQueryOptions = () =>
  queryOptions({ queryKey: ['service-info'], queryFn: getServiceInfo, staleTime: 5 * 60_000 });

export const useServiceInfo = () => useQuery(getServiceInfoQueryOptions());
