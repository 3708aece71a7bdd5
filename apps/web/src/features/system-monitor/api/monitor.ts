import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { THealthReport, TMaintenanceState, TMonitorReport, TRealtimeMetrics } from '@docflow/contracts';
import { api, errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { tr } from '@/i18n/localised';

/** Spec-2 §4 and §9: realtime every 5 s, health every 10 s, everything every 30 s, while auto-refresh is on. */
export const pollIntervals = { realtime: 5000, health: 10_000, full: 30_000 };

const get = async <T>(path: string) => (await api.get<{ data: T }>(`/admin/system/${path}`, { silent: true })).data;
const every = (on: boolean, ms: number) => (on ? ms : false);

export function useMonitor(enabled: boolean, auto: boolean) {
  return useQuery({
    queryKey: ['admin', 'monitor', 'full'],
    queryFn: () => get<TMonitorReport>('monitor'),
    enabled,
    refetchInterval: every(auto, pollIntervals.full),
  });
}

export function useHealth(enabled: boolean, auto: boolean) {
  return useQuery({
    queryKey: ['admin', 'monitor', 'health'],
    queryFn: () => get<THealthReport>('health'),
    enabled,
    refetchInterval: every(auto, pollIntervals.health),
  });
}

export function useRealtime(enabled: boolean, auto: boolean) {
  return useQuery({
    queryKey: ['admin', 'monitor', 'realtime'],
    queryFn: async () => {
      try {
        return await get<TRealtimeMetrics>('realtime');
      } catch (err) {
        // Spec-2 §8: a realtime failure is only a console warning.
        console.warn('realtime metrics failed', err);
        throw err;
      }
    },
    enabled,
    refetchInterval: every(auto, pollIntervals.realtime),
  });
}

/** Refresh Now: the server drops its cached probes and measures again; every figure on the page is re-read. */
export function useRefreshNow() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async () =>
      (await api.post<{ data: TMonitorReport }>('/admin/system/metrics/refresh', undefined, { silent: true })).data,
    onSuccess: async (report) => {
      qc.setQueryData(['admin', 'monitor', 'full'], report);
      await qc.invalidateQueries({ queryKey: ['admin', 'monitor'] });
    },
    onError: (err) => toast.error(errorMessage(err, tr('monitorMessages.refreshFailed'))),
  });
}

export function useSetMaintenance() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (body: { enabled: boolean; message?: string }) =>
      (
        await api.post<{ data: { maintenance: TMaintenanceState } }>('/admin/system/maintenance', body, {
          silent: true,
        })
      ).data.maintenance,
    onSuccess: async (m) => {
      toast.success(tr(m.enabled ? 'monitorMessages.maintenanceOn' : 'monitorMessages.maintenanceOff'));
      await qc.invalidateQueries({ queryKey: ['admin', 'monitor'] });
      await qc.invalidateQueries({ queryKey: ['status'] });
    },
    onError: (err) => toast.error(errorMessage(err, tr('monitorMessages.maintenanceFailed'))),
  });
}

export function useClearCache() {
  return useMutation({
    mutationFn: async () =>
      (
        await api.post<{ data: { cleared: Record<string, number> } }>('/admin/system/cache/clear', undefined, {
          silent: true,
        })
      ).data.cleared,
    onSuccess: (cleared) => toast.success(tr('monitorMessages.cacheCleared', { count: cleared.apiKeys ?? 0 })),
    onError: (err) => toast.error(errorMessage(err, tr('monitorMessages.cacheFailed'))),
  });
}

/** GET /status (public): maintenance as announced to every signed-in page. */
export function useServiceStatus() {
  return useQuery({
    queryKey: ['status'],
    queryFn: async () =>
      (
        await api.get<{ data: { maintenance: { enabled: boolean; message: string | null } } }>('/status', {
          silent: true,
        })
      ).data.maintenance,
    refetchInterval: 30_000,
    retry: false,
  });
}
