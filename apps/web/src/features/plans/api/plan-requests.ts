import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TCreatePlanRequest, TPlanRequest } from '@docflow/contracts';
import { api, errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { tr } from '@/i18n/localised';

const key = ['plan-requests'] as const;

/** GET /my/plan-requests: the user's requests for a paid plan and their states. */
export const getPlanRequests = async (): Promise<TPlanRequest[]> =>
  (await api.get<{ data: { requests: TPlanRequest[] } }>('/my/plan-requests', { silent: true })).data.requests;

export const usePlanRequests = () => useQuery({ queryKey: key, queryFn: getPlanRequests });

/** POST /my/plan-requests: ask the administrators for a plan (no payment provider takes the order). */
export function useCreatePlanRequest() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (body: TCreatePlanRequest) =>
      (await api.post<{ data: { request: TPlanRequest } }>('/my/plan-requests', body, { silent: true })).data.request,
    onSuccess: async (request) => {
      toast.success(tr('planRequests.sent', { plan: request.planDisplayName }));
      await qc.invalidateQueries({ queryKey: key });
    },
  });
}

/** DELETE /my/plan-requests/:id: withdraw a pending request. */
export function useCancelPlanRequest() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) => api.delete(`/my/plan-requests/${id}`, { silent: true }),
    onSuccess: async () => {
      toast.success(tr('planRequests.cancelled'));
      await qc.invalidateQueries({ queryKey: key });
    },
    onError: (err) => toast.error(errorMessage(err, tr('planRequests.cancelFailed'))),
  });
}
