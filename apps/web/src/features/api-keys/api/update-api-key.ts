import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { TApiKey, TUpdateApiKeyRequest } from '@docflow/contracts';
import { api } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { toastKeyError } from '../utils/key-error';
import { keyMessages } from '../utils/messages';
import { getApiKeysQueryOptions } from './get-api-keys';
import { invalidateApiKeys } from './invalidate';

export interface UpdateApiKeyInput extends TUpdateApiKeyRequest {
  id: string;
}

/** PUT /my/api-keys/{id}: rename, enable / disable, or set / clear the expiry. */
export const updateApiKey = async ({ id, ...body }: UpdateApiKeyInput): Promise<TApiKey> => {
  const res = await api.put<{ data: { apiKey: TApiKey } }>(`/my/api-keys/${encodeURIComponent(id)}`, body, {
    silent: true,
  });
  return res.data.apiKey;
};

/**
 * Enabling or disabling shows 'Clé API activée/désactivée avec succès !' (spec-2 §4), other changes 'mise à jour'.
 * The card switches at once; a failure puts it back.
 */
export function useUpdateApiKey() {
  const qc = useQueryClient();
  const listKey = getApiKeysQueryOptions().queryKey;
  return useMutation({
    mutationFn: updateApiKey,
    onMutate: async (input) => {
      await qc.cancelQueries({ queryKey: listKey });
      const previous = qc.getQueryData(listKey);
      if (previous) {
        qc.setQueryData(
          listKey,
          previous.map((k) =>
            k.id === input.id
              ? {
                  ...k,
                  ...(input.name !== undefined && { name: input.name }),
                  ...(input.isActive !== undefined && { isActive: input.isActive }),
                  ...(input.expiresAt !== undefined && { expiresAt: input.expiresAt }),
                }
              : k,
          ),
        );
      }
      return { previous };
    },
    onSuccess: async (_key, input) => {
      if (input.isActive !== undefined && input.name === undefined)
        toast.success(input.isActive ? keyMessages.activated : keyMessages.deactivated);
      else toast.success(keyMessages.updated);
      await invalidateApiKeys(qc);
    },
    onError: (err, input, ctx) => {
      if (ctx?.previous) qc.setQueryData(listKey, ctx.previous);
      const isToggle = input.isActive !== undefined && input.name === undefined;
      toastKeyError(err, isToggle ? keyMessages.errors.toggle : keyMessages.errors.update);
    },
  });
}
