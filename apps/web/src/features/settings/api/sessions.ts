import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TSession } from '@docflow/contracts';
import { messages } from '@/config/messages';
import { errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { authApi } from '@/lib/auth/auth-api';

export const getSessions = async (): Promise<TSession[]> => (await authApi.sessions()).data.sessions;

export const getSessionsQueryOptions = () =>
  queryOptions({ queryKey: ['auth', 'sessions'], queryFn: getSessions, staleTime: 0 });

export const useSessions = () => useQuery(getSessionsQueryOptions());

/** DELETE /auth/sessions/:id → 'Session révoquée avec succès'. */
export function useRevokeSession() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => authApi.revokeSession(id),
    onSuccess: () => {
      toast.success(messages.toast.sessionRevoked);
      return qc.invalidateQueries({ queryKey: getSessionsQueryOptions().queryKey });
    },
    onError: (err) => toast.error(errorMessage(err, messages.store.revoke)),
  });
}

/** POST /auth/revoke-all-sessions → 'Sessions révoquées avec succès'. */
export function useRevokeAllSessions() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => authApi.revokeAllSessions(),
    onSuccess: () => {
      toast.success(messages.toast.sessionsRevoked);
      return qc.invalidateQueries({ queryKey: getSessionsQueryOptions().queryKey });
    },
    onError: (err) => toast.error(errorMessage(err, messages.store.revoke)),
  });
}
