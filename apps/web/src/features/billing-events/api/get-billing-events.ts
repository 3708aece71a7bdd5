import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { TAdminBillingEvent, TBillingEventStatus, TPagination } from '@docflow/contracts';
import { api } from '@/lib/api-client';

export interface BillingEventsFilter {
  page: number;
  type?: string;
  status?: TBillingEventStatus;
}

export interface BillingEventsPage {
  events: TAdminBillingEvent[];
  pagination: TPagination;
  types: string[];
}

/** GET /admin/billing/events: the Stripe events the server received, newest first, of a type and a status. */
export const getBillingEvents = async (f: BillingEventsFilter): Promise<BillingEventsPage> => {
  const q = new URLSearchParams({ page: String(f.page), limit: '25' });
  if (f.type) q.set('type', f.type);
  if (f.status) q.set('status', f.status);
  return (await api.get<{ data: BillingEventsPage }>(`/admin/billing/events?${q}`, { silent: true })).data;
};

export const getBillingEventsQueryOptions = (f: BillingEventsFilter) =>
  queryOptions({
    queryKey: ['admin', 'billing-events', f],
    queryFn: () => getBillingEvents(f),
    placeholderData: keepPreviousData,
  });

export const useBillingEvents = (f: BillingEventsFilter, enabled: boolean) =>
  useQuery({ ...getBillingEventsQueryOptions(f), enabled });
