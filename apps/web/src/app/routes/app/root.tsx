import { Outlet } from 'react-router';
import { DashboardLayout } from '@/components/layouts/dashboard-layout';

/** The shell around every signed-in page. */
export default function AppRoot() {
  return (
    <DashboardLayout>
      <Outlet />
    </DashboardLayout>
  );
}
