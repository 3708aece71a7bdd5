import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TCreateSupportMessage, TSupportMessage } from '@docflow/contracts';
import { api } from '@/lib/api-client';

const key = ['support-messages'] as const;

/** GET /my/support-messages: the user's messages, their states and the replies. */
export const getSupportMessages = async (): Promise<TSupportMessage[]> =>
  (await api.get<{ data: { messages: TSupportMessage[] } }>('/my/support-messages', { silent: true })).data.messages;

export const useSupportMessages = (enabled: boolean) =>
  useQuery({ queryKey: key, queryFn: getSupportMessages, enabled });

/** POST /my/support-messages: store a message for the support team. */
export function useSendSupportMessage() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (body: TCreateSupportMessage) =>
      (await api.post<{ data: { message: TSupportMessage } }>('/my/support-messages', body, { silent: true })).data
        .message,
    onSuccess: () => qc.invalidateQueries({ queryKey: key }),
  });
}
