import { Users } from 'lucide-react';
import { PageHeader } from '@/components/layouts/page-header';
import { EmptyState } from '@/components/ui/empty-state';

// Placeholder inside the shell: features/admin replaces this route module.
export default function AdminUsersRoute() {
  return (
    <>
      <PageHeader title="Users" description="Every account, its role, plan and status." />
      <EmptyState icon={Users} title="Coming soon" description="This page is being built. Check back shortly." />
    </>
  );
}
