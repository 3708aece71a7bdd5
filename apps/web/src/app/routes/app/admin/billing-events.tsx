import { BillingEventsPage } from '@/features/billing-events/components/billing-events-page';

export default function BillingEventsRoute() {
  return <BillingEventsPage />;
}
