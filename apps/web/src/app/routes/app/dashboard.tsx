import { DashboardPage } from '@/features/dashboard/components/dashboard-page';
import { useApiKeys } from '@/features/api-keys/api/get-api-keys';

/** The dashboard, with the user's keys from the api-keys feature (features do not import each other). */
export default function DashboardRoute() {
  const keys = useApiKeys();
  return <DashboardPage apiKeys={keys.data} />;
}
