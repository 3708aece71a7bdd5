import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api-client';

export interface SystemStatus {
  /** 'healthy' when /ready answers, else 'degraded' (the process lives but a dependency does not). */
  health: 'healthy' | 'degraded';
  uptimeSeconds: number;
}

/**
 * The server's own probes, outside /api/v1: /health (liveness, with the process uptime) and /ready (the database
 * answers). The admin System Overview reads its health and uptime from them.
 */
export const getSystemStatus = async (): Promise<SystemStatus> => {
  const origin = window.location.origin;
  const health = await api.get<{ status: string; uptime: number }>(`${origin}/health`, {
    silent: true,
    skipAuth: true,
  });
  const ready = await api
    .get<{ status: string }>(`${origin}/ready`, { silent: true, skipAuth: true })
    .then((r) => r.status === 'ready')
    .catch(() => false);
  return { health: ready ? 'healthy' : 'degraded', uptimeSeconds: health.uptime };
};

export const getSystemStatusQueryOptions = () =>
  queryOptions({ queryKey: ['system', 'status'], queryFn: getSystemStatus, staleTime: 30_000 });

export const useSystemStatus = (opts: { enabled?: boolean } = {}) =>
  useQuery({ ...getSystemStatusQueryOptions(), enabled: opts.enabled ?? true });
