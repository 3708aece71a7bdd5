import { useApiKeys } from '@/features/api-keys/api/get-api-keys';
import { useStripePlans } from '@/features/billing/hooks/use-stripe-plans';
import { PlansPage } from '@/features/plans/components/plans-page';

/**
 * The plans page, with the user's keys composed in (their plans count as owned, spec-1 §4) and, when payments go
 * through Stripe, its Upgrade (Checkout, or the portal) and its billing card.
 */
export default function PlansRoute() {
  const keys = useApiKeys();
  const stripe = useStripePlans();
  return <PlansPage apiKeys={keys.data} onUpgrade={stripe.onUpgrade} billing={stripe.card} />;
}
