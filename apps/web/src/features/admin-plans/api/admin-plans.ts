import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TAdminUpdatePlanRequest, TPlan } from '@docflow/contracts';
import { api, errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import en from '@/i18n/locales/en.json';
import { localised } from '@/i18n/localised';

export const adminPlanMessages = localised(en.adminPlanMessages, 'adminPlanMessages');

/** GET /admin/plans: every plan, private and inactive ones too. */
export function useAdminPlans(enabled: boolean) {
  return useQuery({
    queryKey: ['admin', 'plans'],
    queryFn: async () => (await api.get<{ data: { plans: TPlan[] } }>('/admin/plans', { silent: true })).data.plans,
    enabled,
  });
}

/** PUT /admin/plans/{name}: the public catalogue (plans page, landing page) is re-read at once. */
export function useUpdatePlan() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async ({ name, patch }: { name: string; patch: TAdminUpdatePlanRequest }) =>
      (await api.put<{ data: { plan: TPlan } }>(`/admin/plans/${encodeURIComponent(name)}`, patch, { silent: true }))
        .data.plan,
    onSuccess: async () => {
      toast.success(adminPlanMessages.updated);
      await Promise.all([
        qc.invalidateQueries({ queryKey: ['admin', 'plans'] }),
        qc.invalidateQueries({ queryKey: ['plans'] }),
      ]);
    },
    onError: (err) => toast.error(errorMessage(err, adminPlanMessages.updateFailed)),
  });
}
