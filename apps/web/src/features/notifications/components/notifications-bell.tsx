import { Bell, CheckCheck, CheckCircle2, Info, TriangleAlert } from 'lucide-react';
import type { TNotification } from '@docflow/contracts';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { Spinner } from '@/components/ui/spinner';
import { cn } from '@/utils/cn';
import {
  useMarkAllNotificationsRead,
  useMarkNotificationRead,
  useNotifications,
} from '@/features/notifications/api/notifications';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '@/i18n';
import { tr } from '@/i18n/localised';
import { formatDate } from '@/utils/format';
import { notificationText } from '../utils/notification-text';

const typeIcon = {
  success: { icon: CheckCircle2, cls: 'bg-emerald-50 text-emerald-600' },
  warning: { icon: TriangleAlert, cls: 'bg-amber-50 text-amber-600' },
  info: { icon: Info, cls: 'bg-indigo-50 text-indigo-600' },
} as const;

function timeAgo(iso: string, now = Date.now()): string {
  const rtf = new Intl.RelativeTimeFormat(currentLanguage(), { numeric: 'auto' });
  const diff = (new Date(iso).getTime() - now) / 1000;
  const abs = Math.abs(diff);
  if (abs < 60) return tr('format.justNow');
  if (abs < 3600) return rtf.format(Math.round(diff / 60), 'minute');
  if (abs < 86400) return rtf.format(Math.round(diff / 3600), 'hour');
  if (abs < 86400 * 30) return rtf.format(Math.round(diff / 86400), 'day');
  return formatDate(iso);
}

function NotificationRow({ n: stored, onRead }: { n: TNotification; onRead: (id: string) => void }) {
  const { t } = useTranslation();
  const n = { ...stored, ...notificationText(stored, t) };
  const { icon: Icon, cls } = typeIcon[n.type] ?? typeIcon.info;
  return (
    <DropdownMenuItem
      className={cn('items-start gap-3 py-3', !n.read && 'bg-indigo-50/40')}
      onSelect={(e) => {
        e.preventDefault();
        if (!n.read) onRead(n.id);
      }}
      aria-label={t(n.read ? 'notificationsBell.item' : 'notificationsBell.unreadItem', {
        title: n.title,
        message: n.message,
      })}
      data-testid="notification-item"
      data-read={n.read}
    >
      <span className={cn('mt-0.5 grid h-8 w-8 shrink-0 place-items-center rounded-full', cls)}>
        <Icon className="h-4 w-4" aria-hidden="true" />
      </span>
      <span className="min-w-0 flex-1">
        <span className="flex items-center gap-2">
          <span
            className={cn('truncate text-sm', n.read ? 'font-medium text-slate-700' : 'font-semibold text-slate-900')}
          >
            {n.title}
          </span>
          {!n.read && <span className="h-2 w-2 shrink-0 rounded-full bg-indigo-600" aria-hidden="true" />}
        </span>
        <span className="mt-0.5 block text-xs leading-relaxed text-slate-600">{n.message}</span>
        <span className="mt-1 block text-[11px] text-slate-400">{timeAgo(n.timestamp)}</span>
      </span>
    </DropdownMenuItem>
  );
}

/** The header's bell: unread badge and a dropdown list; one click marks an item read. */
export function NotificationsBell() {
  const { t } = useTranslation();
  const { data, isLoading, isError } = useNotifications();
  const markRead = useMarkNotificationRead();
  const markAll = useMarkAllNotificationsRead();
  const unread = data?.unreadCount ?? 0;
  const label =
    unread > 0 ? t('notificationsBell.labelUnread', { count: unread }) : t('notificationsBell.notifications');

  return (
    <DropdownMenu>
      <DropdownMenuTrigger
        className="relative grid h-10 w-10 place-items-center rounded-full text-slate-500 hover:bg-slate-100 hover:text-slate-700 focus-visible:outline-2 focus-visible:outline-indigo-600"
        aria-label={label}
        data-testid="notifications-bell"
      >
        <Bell className="h-5 w-5" aria-hidden="true" />
        {unread > 0 && (
          <span
            className="absolute right-1 top-1 grid h-4.5 min-w-4.5 place-items-center rounded-full bg-rose-500 px-1 text-[10px] font-bold leading-none text-white ring-2 ring-white"
            data-testid="notifications-badge"
            aria-hidden="true"
          >
            {unread > 99 ? '99+' : unread}
          </span>
        )}
      </DropdownMenuTrigger>
      <DropdownMenuContent className="w-[min(24rem,calc(100vw-1.5rem))] p-0">
        <div className="flex items-center justify-between px-4 py-3">
          <p className="text-sm font-semibold text-slate-900">{t('notificationsBell.notifications')}</p>
          {unread > 0 && (
            <span className="rounded-full bg-indigo-50 px-2 py-0.5 text-xs font-medium text-indigo-700">
              {unread} {t('notificationsBell.new')}
            </span>
          )}
        </div>
        <DropdownMenuSeparator className="my-0" />
        <div className="max-h-96 overflow-y-auto p-1">
          {isLoading && (
            <div className="grid place-items-center py-8">
              <Spinner className="h-5 w-5" />
            </div>
          )}
          {isError && (
            <p className="px-3 py-6 text-center text-sm text-slate-500">
              {t('notificationsBell.notificationsCouldNotBeLoaded')}
            </p>
          )}
          {data && data.notifications.length === 0 && (
            <div className="px-3 py-8 text-center">
              <Bell className="mx-auto h-6 w-6 text-slate-300" aria-hidden="true" />
              <p className="mt-2 text-sm text-slate-500">{t('notificationsBell.youReAllCaughtUp')}</p>
            </div>
          )}
          {data?.notifications.map((n) => (
            <NotificationRow key={n.id} n={n} onRead={(id) => markRead.mutate(id)} />
          ))}
        </div>
        {data && data.notifications.length > 0 && (
          <>
            <DropdownMenuSeparator className="my-0" />
            <div className="p-1">
              <DropdownMenuItem
                className="justify-center font-medium text-indigo-600 data-[highlighted]:text-indigo-700"
                disabled={unread === 0 || markAll.isPending}
                onSelect={(e) => {
                  e.preventDefault();
                  markAll.mutate();
                }}
              >
                <CheckCheck className="h-4 w-4" aria-hidden="true" /> {t('notificationsBell.markAllAsRead')}
              </DropdownMenuItem>
            </div>
          </>
        )}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
