import { FlaskConical } from 'lucide-react';
import { PageHeader } from '@/components/layouts/page-header';
import { EmptyState } from '@/components/ui/empty-state';

// Placeholder inside the shell: features/playground replaces this route module.
export default function PlaygroundRoute() {
  return (
    <>
      <PageHeader title="Playground" description="Try the API from your browser." />
      <EmptyState icon={FlaskConical} title="Coming soon" description="This page is being built. Check back shortly." />
    </>
  );
}
