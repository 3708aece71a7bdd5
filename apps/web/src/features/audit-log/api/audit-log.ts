import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TAuditEntry, TPagination } from '@docflow/contracts';
import { api } from '@/lib/api-client';

/** GET /admin/audit-log: admin actions (or, with everything, sign-ins too), newest first. */
export function useAuditLog(q: { page: number; everything: boolean }, enabled: boolean) {
  return useQuery({
    queryKey: ['admin', 'audit-log', q],
    queryFn: async () =>
      (
        await api.get<{ data: { entries: TAuditEntry[]; pagination: TPagination } }>(
          `/admin/audit-log?page=${q.page}&limit=50&adminOnly=${!q.everything}`,
          { silent: true },
        )
      ).data,
    enabled,
    placeholderData: keepPreviousData,
  });
}
