import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  TAdminPlanRequest,
  TAdminSupportMessage,
  TGrantPlanRequest,
  TPlanRequestStatus,
  TSupportMessageStatus,
} from '@docflow/contracts';
import { api, errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { tr } from '@/i18n/localised';

const planKey = ['admin', 'plan-requests'] as const;
const supportKey = ['admin', 'support-messages'] as const;

/** GET /admin/plan-requests: customers' requests for a plan, newest first. */
export function useAdminPlanRequests(status: TPlanRequestStatus | 'all', enabled: boolean) {
  return useQuery({
    queryKey: [...planKey, status],
    queryFn: async () =>
      (
        await api.get<{ data: { requests: TAdminPlanRequest[] } }>(
          `/admin/plan-requests${status === 'all' ? '' : `?status=${status}`}`,
          { silent: true },
        )
      ).data.requests,
    enabled,
  });
}

/** GET /admin/support-messages: messages sent from the Support page, newest first. */
export function useAdminSupportMessages(status: TSupportMessageStatus | 'all', enabled: boolean) {
  return useQuery({
    queryKey: [...supportKey, status],
    queryFn: async () =>
      (
        await api.get<{ data: { messages: TAdminSupportMessage[] } }>(
          `/admin/support-messages${status === 'all' ? '' : `?status=${status}`}`,
          { silent: true },
        )
      ).data.messages,
    enabled,
  });
}

/** One admin decision: posted, the list re-read, the outcome told in a toast. */
function useDecision<V>(url: (v: V) => string, body: (v: V) => unknown, key: readonly string[], done: string) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (v: V) => api.post(url(v), body(v), { silent: true }),
    onSuccess: async () => {
      toast.success(tr(done as never));
      await qc.invalidateQueries({ queryKey: key });
    },
    onError: (err) => toast.error(errorMessage(err, tr('customerRequests.failed'))),
  });
}

export const useGrantPlanRequest = () =>
  useDecision<{ id: string } & TGrantPlanRequest>(
    (v) => `/admin/plan-requests/${v.id}/grant`,
    ({ id: _id, ...body }) => body,
    planKey,
    'customerRequests.granted',
  );

export const useDeclinePlanRequest = () =>
  useDecision<{ id: string; note: string }>(
    (v) => `/admin/plan-requests/${v.id}/decline`,
    (v) => ({ note: v.note }),
    planKey,
    'customerRequests.declined',
  );

export const useHandleSupportMessage = () =>
  useDecision<{ id: string; reply?: string }>(
    (v) => `/admin/support-messages/${v.id}/handle`,
    (v) => (v.reply ? { reply: v.reply } : {}),
    supportKey,
    'customerRequests.handled',
  );
