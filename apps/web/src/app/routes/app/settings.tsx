import { PageHeader } from '@/components/layouts/page-header';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent } from '@/components/ui/card';
import { useAuthStore } from '@/lib/auth/auth-store';
import { ChangePasswordForm } from '@/features/settings/components/change-password-form';
import { ProfileForm } from '@/features/settings/components/profile-form';
import { SessionsList } from '@/features/settings/components/sessions-list';
import { SigningCertificatesCard } from '@/features/settings/components/signing-certificates-card';
import { roleLabel } from '@/utils/role';
import { useTranslation } from 'react-i18next';

/** /settings: beyond the spec's placeholder, the profile, the password, the sessions and the signing certificates. */
export default function SettingsRoute() {
  const { t } = useTranslation();
  const user = useAuthStore((s) => s.user);
  return (
    <>
      <PageHeader title={t('settings.settings')} description={t('settings.manageYourProfilePasswordAnd')} />
      <div className="space-y-6">
        {user && (
          <Card>
            <CardContent className="flex flex-wrap items-center gap-x-8 gap-y-3 text-sm">
              <div>
                <p className="text-xs text-slate-500">{t('settings.account')}</p>
                <p className="font-medium text-slate-900">{user.email}</p>
              </div>
              <div>
                <p className="text-xs text-slate-500">{t('settings.role')}</p>
                <p className="font-medium capitalize text-slate-900">{roleLabel(user.role)}</p>
              </div>
              <div>
                <p className="text-xs text-slate-500">{t('settings.plan')}</p>
                <p className="font-medium capitalize text-slate-900">{user.plan}</p>
              </div>
              <div>
                <p className="text-xs text-slate-500">{t('settings.memberSince')}</p>
                <p className="font-medium text-slate-900">
                  {new Date(user.createdAt).toLocaleDateString('en', { dateStyle: 'medium' })}
                </p>
              </div>
              <div className="ml-auto">
                {user.emailVerified ? (
                  <Badge tone="green">{t('settings.emailVerified')}</Badge>
                ) : (
                  <Badge tone="amber">{t('settings.emailNotVerified')}</Badge>
                )}
              </div>
            </CardContent>
          </Card>
        )}
        <ProfileForm user={user} />
        <ChangePasswordForm />
        <SessionsList />
        <SigningCertificatesCard />
      </div>
    </>
  );
}
