import { UsersPage } from '@/features/user-management/components/users-page';

export default function AdminUsersRoute() {
  return <UsersPage />;
}
