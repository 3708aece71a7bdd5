import { useNotifications } from '@/features/notifications/api/notifications';
import { AnalyticsPage } from '@/features/usage/components/analytics-page';

/** Analytics, with the unread-notification count composed in for the system insights. */
export default function AnalyticsRoute() {
  const notifications = useNotifications();
  return <AnalyticsPage unreadNotifications={notifications.data?.unreadCount} />;
}
