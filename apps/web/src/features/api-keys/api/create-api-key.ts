import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { ZApiKeyEnvironment, type TApiKey } from '@docflow/contracts';
import { api } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { toastKeyError } from '../utils/key-error';
import { keyMessages } from '../utils/messages';
import { invalidateApiKeys } from './invalidate';

/** The create form: spec-2 §5, the modal only requires a non-empty trimmed name (the server checks the rest). */
export const createApiKeyInputSchema = z.object({
  name: z.string().trim().min(1),
  environment: ZApiKeyEnvironment,
  planName: z.string().min(1).optional(),
});
export type CreateApiKeyInput = z.infer<typeof createApiKeyInputSchema>;

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
    onError: (err) => toastKeyError(err, keyMessages.errors.create),
  });
}
