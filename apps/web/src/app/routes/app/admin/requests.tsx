import { CustomerRequestsPage } from '@/features/customer-requests/components/customer-requests-page';

export default function AdminRequestsRoute() {
  return <CustomerRequestsPage />;
}
