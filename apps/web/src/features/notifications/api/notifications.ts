import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { TNotification } from '@docflow/contracts';
import { messages } from '@/config/messages';
import { api } from '@/lib/api-client';
import { toast } from '@/lib/toast';

export interface NotificationsData {
  notifications: TNotification[];
  unreadCount: number;
}

export const getNotifications = async (): Promise<NotificationsData> => {
  const res = await api.get<{ data: NotificationsData }>('/notifications', { query: { limit: 20 } });
  return res.data;
};

/** Fetched once at start-up (spec-1 §2): no background refetching. */
export const getNotificationsQueryOptions = () =>
  queryOptions({ queryKey: ['notifications'], queryFn: getNotifications, staleTime: Infinity });

export const useNotifications = (opts: { enabled?: boolean } = {}) =>
  useQuery({ ...getNotificationsQueryOptions(), enabled: opts.enabled ?? true });

export const markNotificationRead = (id: string) => api.post(`/notifications/${encodeURIComponent(id)}/read`, {});
export const markAllNotificationsRead = () => api.post('/notifications/read-all', {});

/** Mark one notification read: `read` becomes true at once, the server is told after. */
export function useMarkNotificationRead() {
  const qc = useQueryClient();
  const key = getNotificationsQueryOptions().queryKey;
  return useMutation({
    mutationFn: markNotificationRead,
    onMutate: async (id: string) => {
      await qc.cancelQueries({ queryKey: key });
      const previous = qc.getQueryData<NotificationsData>(key);
      if (previous) {
        const wasUnread = previous.notifications.some((n) => n.id === id && !n.read);
        qc.setQueryData<NotificationsData>(key, {
          notifications: previous.notifications.map((n) => (n.id === id ? { ...n, read: true } : n)),
          unreadCount: Math.max(0, previous.unreadCount - (wasUnread ? 1 : 0)),
        });
      }
      return { previous };
    },
    onError: (_err, _id, ctx) => {
      if (ctx?.previous) qc.setQueryData(key, ctx.previous);
    },
  });
}

/** Mark all read, then the spec's toast 'Toutes les notifications ont été marquées comme lues'. */
export function useMarkAllNotificationsRead() {
  const qc = useQueryClient();
  const key = getNotificationsQueryOptions().queryKey;
  return useMutation({
    mutationFn: markAllNotificationsRead,
    onSuccess: () => {
      const previous = qc.getQueryData<NotificationsData>(key);
      if (previous) {
        qc.setQueryData<NotificationsData>(key, {
          notifications: previous.notifications.map((n) => ({ ...n, read: true })),
          unreadCount: 0,
        });
      }
      toast.success(messages.toast.allNotificationsRead);
    },
  });
}
