import { Activity } from 'lucide-react';
import { PageHeader } from '@/components/layouts/page-header';
import { EmptyState } from '@/components/ui/empty-state';

// Placeholder inside the shell: features/admin replaces this route module.
export default function SystemMonitorRoute() {
  return (
    <>
      <PageHeader title="System Monitor" description="Health of the API, the engines and the queue." />
      <EmptyState icon={Activity} title="Coming soon" description="This page is being built. Check back shortly." />
    </>
  );
}
