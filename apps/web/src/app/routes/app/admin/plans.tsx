import { AdminPlansPage } from '@/features/admin-plans/components/admin-plans-page';

export default function AdminPlansRoute() {
  return <AdminPlansPage />;
}
