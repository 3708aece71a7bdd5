import { PageHeader } from '@/components/layouts/page-header';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent } from '@/components/ui/card';
import { useAuthStore } from '@/lib/auth/auth-store';
import { ChangePasswordForm } from '@/features/settings/components/change-password-form';
import { ProfileForm } from '@/features/settings/components/profile-form';
import { SessionsList } from '@/features/settings/components/sessions-list';
import { roleLabel } from '@/utils/role';

/** /settings: beyond the spec's placeholder, the profile, the password and the sessions. */
export default function SettingsRoute() {
  const user = useAuthStore((s) => s.user);
  return (
    <>
      <PageHeader title="Settings" description="Manage your profile, password and signed-in devices." />
      <div className="space-y-6">
        {user && (
          <Card>
            <CardContent className="flex flex-wrap items-center gap-x-8 gap-y-3 text-sm">
              <div>
                <p className="text-xs text-slate-500">Account</p>
                <p className="font-medium text-slate-900">{user.email}</p>
              </div>
              <div>
                <p className="text-xs text-slate-500">Role</p>
                <p className="font-medium capitalize text-slate-900">{roleLabel(user.role)}</p>
              </div>
              <div>
                <p className="text-xs text-slate-500">Plan</p>
                <p className="font-medium capitalize text-slate-900">{user.plan}</p>
              </div>
              <div>
                <p className="text-xs text-slate-500">Member since</p>
                <p className="font-medium text-slate-900">
                  {new Date(user.createdAt).toLocaleDateString('en', { dateStyle: 'medium' })}
                </p>
              </div>
              <div className="ml-auto">
                {user.emailVerified ? (
                  <Badge tone="green">Email verified</Badge>
                ) : (
                  <Badge tone="amber">Email not verified</Badge>
                )}
              </div>
            </CardContent>
          </Card>
        )}
        <ProfileForm user={user} />
        <ChangePasswordForm />
        <SessionsList />
      </div>
    </>
  );
}
