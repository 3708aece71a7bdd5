import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TApiKey } from '@docflow/contracts';
import { api } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { toastKeyError } from '../utils/key-error';
import { keyMessages } from '../utils/messages';
import { invalidateApiKeys } from './invalidate';

/** POST /my/api-keys/{id}/regenerate: a new secret, the old one dead at once, usage kept; the answer has the full key. */
export const regenerateApiKey = async (id: string): Promise<TApiKey> => {
  const res = await api.post<{ data: { apiKey: TApiKey } }>(
    `/my/api-keys/${encodeURIComponent(id)}/regenerate`,
    {},
    { silent: true },
  );
  return res.data.apiKey;
};

export function useRegenerateApiKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: regenerateApiKey,
    onSuccess: async () => {
      toast.success(keyMessages.regenerated);
      await invalidateApiKeys(qc);
    },
    onError: (err) => toastKeyError(err, keyMessages.errors.regenerate),
  });
}
