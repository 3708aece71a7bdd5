import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { toastKeyError } from '../utils/key-error';
import { keyMessages } from '../utils/messages';
import { getApiKeysQueryOptions } from './get-api-keys';
import { invalidateApiKeys } from './invalidate';

/** DELETE /my/api-keys/{id}. */
export const deleteApiKey = async (id: string): Promise<void> => {
  await api.delete(`/my/api-keys/${encodeURIComponent(id)}`, { silent: true });
};

export function useDeleteApiKey() {
  const qc = useQueryClient();
  const listKey = getApiKeysQueryOptions().queryKey;
  return useMutation({
    mutationFn: deleteApiKey,
    onSuccess: async (_void, id) => {
      // Spec-2 §4: deleting removes it from the lists at once.
      const list = qc.getQueryData(listKey);
      if (list)
        qc.setQueryData(
          listKey,
          list.filter((k) => k.id !== id),
        );
      toast.success(keyMessages.deleted);
      await invalidateApiKeys(qc);
    },
    onError: (err) => toastKeyError(err, keyMessages.errors.delete),
  });
}
