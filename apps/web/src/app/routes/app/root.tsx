import { Outlet } from 'react-router';
import { DashboardLayout } from '@/components/layouts/dashboard-layout';
import { NotificationsBell } from '@/features/notifications/components/notifications-bell';
import { MaintenanceBanner } from '@/features/system-monitor/components/maintenance-banner';

/** The shell around every signed-in page, with the maintenance banner when processing is paused. */
export default function AppRoot() {
  return (
    <DashboardLayout headerActions={<NotificationsBell />}>
      <MaintenanceBanner />
      <Outlet />
    </DashboardLayout>
  );
}
