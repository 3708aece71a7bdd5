import { AuthLayout } from '@/components/layouts/auth-layout';
import { Alert } from '@/components/ui/alert';
import { ChangePasswordForm } from '@/features/settings/components/change-password-form';
import { useTranslation } from 'react-i18next';

/**
 * /change-password: the first sign-in of an account an admin created. Its temporary password works only here (the
 * server answers PASSWORD_CHANGE_REQUIRED elsewhere); once replaced, the route gate opens the dashboard.
 */
export default function ChangeTemporaryPasswordRoute() {
  const { t } = useTranslation();
  return (
    <AuthLayout
      title={t('changePassword.chooseYourPassword')}
      heading={t('changePassword.chooseYourPassword')}
      centered
    >
      <div className="space-y-4">
        <Alert tone="info" data-testid="temporary-password-notice">
          {t('changePassword.yourAccountWasCreatedBy')}
        </Alert>
        <ChangePasswordForm />
      </div>
    </AuthLayout>
  );
}
