import { useApiKeys } from '@/features/api-keys/api/get-api-keys';
import { PlansPage } from '@/features/plans/components/plans-page';

/** The plans page, with the user's keys composed in: their plans count as owned (spec-1 §4). */
export default function PlansRoute() {
  const keys = useApiKeys();
  return <PlansPage apiKeys={keys.data} />;
}
