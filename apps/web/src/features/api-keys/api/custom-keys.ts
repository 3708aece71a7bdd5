import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  TAdminUser,
  TCreateCustomKeyRequest,
  TCustomKey,
  TCustomLimitsDraft,
  TCustomLimitsPreview,
  TEndpointGroup,
} from '@docflow/contracts';
import { api } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { toastKeyError } from '../utils/key-error';
import { keyMessages } from '../utils/messages';
import { invalidateApiKeys } from './invalidate';

export interface CustomLimitsTemplate {
  template: TCustomLimitsDraft;
  bounds: Record<string, { min: number; max: number }>;
  endpointGroups: TEndpointGroup[];
}

/** GET /admin/api-keys/custom/template: section 9's defaults and bounds. */
export function useCustomLimitsTemplate(enabled: boolean) {
  return useQuery({
    queryKey: ['admin', 'custom-keys', 'template'],
    queryFn: async () =>
      (await api.get<{ data: CustomLimitsTemplate }>('/admin/api-keys/custom/template', { silent: true })).data,
    enabled,
    staleTime: Infinity,
  });
}

/** POST /admin/api-keys/custom/preview: the server's verdict on a draft (sent after a 500 ms pause in editing). */
export function useCustomLimitsPreview(draft: TCustomLimitsDraft | null, userId: string | undefined) {
  return useQuery({
    queryKey: ['admin', 'custom-keys', 'preview', draft, userId ?? null],
    queryFn: async () =>
      (
        await api.post<{ data: { preview: TCustomLimitsPreview } }>(
          '/admin/api-keys/custom/preview',
          { customLimits: draft, ...(userId ? { userId } : {}) },
          { silent: true },
        )
      ).data.preview,
    enabled: draft !== null,
    placeholderData: (previous) => previous,
  });
}

/** The account a custom key is made for, found by exact e-mail (GET /admin/users/search). */
export async function findUserByEmail(email: string): Promise<TAdminUser | undefined> {
  const res = await api.get<{ data: { users: TAdminUser[] } }>(
    `/admin/users/search?q=${encodeURIComponent(email)}&limit=50`,
    { silent: true },
  );
  return res.data.users.find((u) => u.email.toLowerCase() === email.trim().toLowerCase());
}

/** POST /admin/api-keys/custom: the answer carries the full key, shown once. */
export function useCreateCustomKey() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: async (body: TCreateCustomKeyRequest) =>
      (await api.post<{ data: { apiKey: TCustomKey } }>('/admin/api-keys/custom', body, { silent: true })).data.apiKey,
    onSuccess: async () => {
      toast.success(keyMessages.customCreated);
      await invalidateApiKeys(qc);
    },
    onError: (err) => toastKeyError(err, keyMessages.errors.createCustom),
  });
}
