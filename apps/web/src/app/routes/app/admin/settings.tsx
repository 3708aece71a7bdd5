import { SlidersHorizontal } from 'lucide-react';
import { PageHeader } from '@/components/layouts/page-header';
import { EmptyState } from '@/components/ui/empty-state';

// Placeholder inside the shell: features/admin replaces this route module.
export default function AdminSettingsRoute() {
  return (
    <>
      <PageHeader title="Admin Settings" description="Platform-wide settings." />
      <EmptyState
        icon={SlidersHorizontal}
        title="Coming soon"
        description="This page is being built. Check back shortly."
      />
    </>
  );
}
