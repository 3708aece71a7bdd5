import { Outlet } from 'react-router';
import { DashboardLayout } from '@/components/layouts/dashboard-layout';
import { MaintenanceBanner } from '@/features/system-monitor/components/maintenance-banner';

/** The shell around every signed-in page, with the maintenance banner when processing is paused. */
export default function AppRoot() {
  return (
    <DashboardLayout>
      <MaintenanceBanner />
      <Outlet />
    </DashboardLayout>
  );
}
