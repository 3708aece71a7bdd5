import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TJob, TWebhookDelivery } from '@docflow/contracts';
import { api, errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { useTranslation } from 'react-i18next';
import { resolveLanguage, type TKey } from '@/i18n';
import { tr } from '@/i18n/localised';

const ended = (j: TJob) => j.status === 'succeeded' || j.status === 'failed' || j.status === 'cancelled';

export const jobsKey = ['jobs'] as const;

/**
 * The user's latest jobs; refreshed every second while one is still queued or running (its progress moves). Read
 * per interface language: a failed job's message is rendered by the server in the language asked (Accept-Language),
 * so switching language reads them again in the new one.
 */
export const useJobs = () => {
  const { i18n } = useTranslation();
  return useQuery({
    queryKey: [...jobsKey, resolveLanguage(i18n.language)],
    queryFn: async () => (await api.get<{ data: { jobs: TJob[] } }>('/jobs', { query: { limit: 50 } })).data.jobs,
    refetchInterval: (q) => (q.state.data?.some((j) => !ended(j) || j.webhook?.status === 'pending') ? 1000 : false),
  });
};

/** Every delivery attempt of one job's webhook (refreshed while its webhook is still being sent). */
export const useDeliveries = (job: TJob, open: boolean) =>
  useQuery({
    // The webhook's state in the key: when the list sees it end (delivered, failed), the log is read once more, or
    // its last poll may have come just before the last attempt was written.
    queryKey: ['jobs', job.id, 'deliveries', job.webhook?.status, job.webhook?.attempts],
    enabled: open && job.webhook !== null,
    queryFn: async () =>
      (await api.get<{ data: { deliveries: TWebhookDelivery[] } }>(`/jobs/${job.id}/deliveries`)).data.deliveries,
    refetchInterval: job.webhook?.status === 'pending' || job.webhook?.status === 'waiting' ? 1000 : false,
    placeholderData: keepPreviousData,
  });

export const useWebhookSecret = () =>
  useQuery({
    queryKey: ['webhooks', 'secret'],
    queryFn: async () => (await api.get<{ data: { secret: string; createdAt: string } }>('/webhooks/secret')).data,
    staleTime: Infinity,
  });

export function useRotateSecret() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async () =>
      (await api.post<{ data: { secret: string; createdAt: string } }>('/webhooks/secret/rotate', {})).data,
    onSuccess: (data) => {
      qc.setQueryData(['webhooks', 'secret'], data);
      toast.success(tr('jobsMessages.secretRotated'));
    },
    onError: (err) => toast.error(errorMessage(err, tr('jobsMessages.secretRotateFailed'))),
  });
}

function useJobAction(run: (id: string) => Promise<unknown>, done: TKey, failed: TKey) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => {
      toast.success(tr(done));
      return qc.invalidateQueries({ queryKey: jobsKey });
    },
    onError: (err) => toast.error(errorMessage(err, tr(failed))),
  });
}

export const useResendWebhook = () =>
  useJobAction((id) => api.post(`/jobs/${id}/webhook/resend`, {}), 'jobsMessages.resent', 'jobsMessages.resendFailed');
export const useCancelJob = () =>
  useJobAction((id) => api.delete(`/jobs/${id}`), 'jobsMessages.cancelled', 'jobsMessages.cancelFailed');

/** The job's result as a download (the dashboard's token authorises it like the job's API key). */
export async function downloadResult(job: TJob): Promise<void> {
  const blob = await api.get<Blob>(`/jobs/${job.id}/result`, { responseType: 'blob' });
  const a = document.createElement('a');
  a.href = URL.createObjectURL(blob);
  a.download = job.result?.fileName ?? `${job.id}`;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}
