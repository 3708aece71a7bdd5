import { useNavigate } from 'react-router';
import { AuthLayout } from '@/components/layouts/auth-layout';
import { paths } from '@/config/paths';
import { FreeTrialPanel } from '@/features/auth/components/auth-asides';
import { RegisterForm } from '@/features/auth/components/register-form';
import { useTranslation } from 'react-i18next';

export default function RegisterRoute() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <AuthLayout
      title={t('register.createYourAccount')}
      heading={t('register.createYourAccount')}
      subheading={t('register.getAnApiKeyAnd')}
      aside={<FreeTrialPanel />}
      asideOnMobile
    >
      <RegisterForm
        onSuccess={({ verificationRequired, email }) => {
          // Without tokens the account waits for e-mail verification; with tokens the gate moves on to /dashboard.
          if (verificationRequired) navigate(paths.auth.checkEmail.getHref(), { state: { email } });
        }}
      />
    </AuthLayout>
  );
}
