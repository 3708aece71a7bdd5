import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TSubscription } from '@docflow/contracts';
import { ApiError, api } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { useAuthStore } from '@/lib/auth/auth-store';
import { tr } from '@/i18n/localised';

/** POST /my/subscriptions {planName}: start the 14-day free trial of a plan (beyond the spec, whose buttons only logged). */
export const startTrial = async (planName: string): Promise<TSubscription> => {
  const res = await api.post<{ data: { subscription: TSubscription } }>(
    '/my/subscriptions',
    { planName },
    { silent: true },
  );
  return res.data.subscription;
};

/** Our wording: the specification has no subscribe call, so no text for it. */
const trialMessages = {
  started: (plan: string, days: number | null) =>
    days ? tr('trialMessages.startedTrial', { plan, days }) : tr('trialMessages.startedPlan', { plan }),
  get failed() {
    return tr('trialMessages.failed');
  },
};

export function useStartTrial() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: startTrial,
    onSuccess: async (subscription) => {
      toast.success(trialMessages.started(subscription.planDisplayName, subscription.daysRemaining));
      // The user's plans come with the user: re-read it so the badges follow, then the figures that depend on it.
      await useAuthStore.getState().fetchMe();
      await Promise.all([
        qc.invalidateQueries({ queryKey: ['subscriptions'] }),
        qc.invalidateQueries({ queryKey: ['usage'] }),
        qc.invalidateQueries({ queryKey: ['dashboard'] }),
      ]);
    },
    onError: (err) =>
      toast.error(
        err instanceof ApiError
          ? (err.serverMessage ?? (err.status === 0 ? err.message : trialMessages.failed))
          : trialMessages.failed,
      ),
  });
}
