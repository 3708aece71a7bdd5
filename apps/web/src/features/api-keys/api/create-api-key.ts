import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { ZCreateApiKeyRequest, type TApiKey } from '@docflow/contracts';
import { api } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { toastKeyError } from '../utils/key-error';
import { keyMessages } from '../utils/messages';
import { planErrorOf } from '../utils/plan-refusal';
import { invalidateApiKeys } from './invalidate';

/**
 * The create request as the server validates it, except the name: spec-2 §5, the modal only requires a non-empty
 * trimmed name, and the server's own message names what else is wrong with it.
 */
export const createApiKeyInputSchema = ZCreateApiKeyRequest.extend({ name: z.string().trim().min(1) });
export type CreateApiKeyInput = z.input<typeof ZCreateApiKeyRequest>;

/** POST /my/api-keys: the answer carries the full key, the only time it is ever shown. */
export const createApiKey = async (input: CreateApiKeyInput): Promise<TApiKey> => {
  const body = createApiKeyInputSchema.parse(input);
  const res = await api.post<{ data: { apiKey: TApiKey } }>('/my/api-keys', body, { silent: true });
  return res.data.apiKey;
};

export function useCreateApiKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: createApiKey,
    onSuccess: async () => {
      toast.success(keyMessages.created);
      await invalidateApiKeys(qc);
    },
    // A refused plan is shown beside the plans by the dialog.
    onError: (err) => {
      if (!planErrorOf(err)) toastKeyError(err, keyMessages.errors.create);
    },
  });
}
