import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  TAdminCreateUserRequest,
  TAdminUpdateUserRequest,
  TAdminUser,
  TAdminUserCounts,
  TAdminUserStats,
  TPagination,
  TUserRole,
} from '@docflow/contracts';
import { api, errorMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { userMessages } from '../messages';

export interface UsersQuery {
  page: number;
  limit: number;
  search: string;
  role: TUserRole | 'all';
  source: 'web' | 'api' | 'admin' | 'all';
}

export interface UsersPage {
  users: TAdminUser[];
  pagination: TPagination;
  counts: TAdminUserCounts;
}

const toQuery = (q: UsersQuery) =>
  new URLSearchParams({
    page: String(q.page),
    limit: String(q.limit),
    ...(q.search.trim() ? { search: q.search.trim() } : {}),
    ...(q.role !== 'all' ? { role: q.role } : {}),
    ...(q.source !== 'all' ? { source: q.source } : {}),
  }).toString();

/** GET /admin/users (spec-2: page 1, limit 50); the previous page stays on screen while the next loads. */
export function useAdminUsers(q: UsersQuery, enabled: boolean) {
  return useQuery({
    queryKey: ['admin', 'users', q],
    queryFn: async () => (await api.get<{ data: UsersPage }>(`/admin/users?${toQuery(q)}`, { silent: true })).data,
    enabled,
    placeholderData: keepPreviousData,
  });
}

/**
 * GET /admin/users/{id}/stats: the user's figures, the month's calls among them as the user's own pages count them
 * (made · counted · not counted).
 */
export function useAdminUserStats(id: string | undefined) {
  return useQuery({
    queryKey: ['admin', 'users', id, 'stats'],
    queryFn: async () =>
      (await api.get<{ data: { stats: TAdminUserStats } }>(`/admin/users/${id}/stats`, { silent: true })).data.stats,
    enabled: id !== undefined,
  });
}

function useUserMutation<V, R>(
  fn: (v: V) => Promise<{ data: R; message?: string }>,
  fallback: string,
  success: (r: R, message?: string) => string,
) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async (res) => {
      toast.success(success(res.data, res.message));
      await qc.invalidateQueries({ queryKey: ['admin', 'users'] });
    },
    onError: (err) => toast.error(errorMessage(err, fallback)),
  });
}

export const useCreateUser = () =>
  useUserMutation(
    (body: TAdminCreateUserRequest) =>
      api.post<{ data: { user: TAdminUser; tempPassword: string } }>('/admin/users', body, { silent: true }),
    userMessages.errors.create,
    () => userMessages.created,
  );

export const useUpdateUser = () =>
  useUserMutation(
    ({ id, patch }: { id: string; patch: TAdminUpdateUserRequest }) =>
      api.put<{ data: { user: TAdminUser } }>(`/admin/users/${id}`, patch, { silent: true }),
    userMessages.errors.update,
    () => userMessages.updated,
  );

export const useSetUserStatus = () =>
  useUserMutation(
    ({ id, isActive }: { id: string; isActive: boolean }) =>
      api.patch<{ data: { user: TAdminUser } }>(`/admin/users/${id}/status`, { isActive }, { silent: true }),
    userMessages.errors.toggle,
    (r) => userMessages.statusChanged(r.user.isActive),
  );

export const useDeleteUser = () =>
  useUserMutation(
    (id: string) =>
      api.delete<{ data: { deletedUser: TAdminUser; deletedApiKeys: number } }>(`/admin/users/${id}`, { silent: true }),
    userMessages.errors.delete,
    (r) => userMessages.deleted(r.deletedApiKeys),
  );
