import { CreditCard } from 'lucide-react';
import { PageHeader } from '@/components/layouts/page-header';
import { EmptyState } from '@/components/ui/empty-state';

// Placeholder inside the shell: features/admin-plans replaces this route module.
export default function AdminPlansRoute() {
  return (
    <>
      <PageHeader title="Plan Management" description="Prices, limits and visibility of every plan." />
      <EmptyState icon={CreditCard} title="Coming soon" description="This page is being built. Check back shortly." />
    </>
  );
}
