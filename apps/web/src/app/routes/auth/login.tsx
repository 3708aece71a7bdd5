import { AuthLayout } from '@/components/layouts/auth-layout';
import { SignInPanel } from '@/features/auth/components/auth-asides';
import { LoginForm } from '@/features/auth/components/login-form';
import { useTranslation } from 'react-i18next';

/** /login: once signed in, the visitors-only gate sends the user on to /dashboard (or the page they came from). */
export default function LoginRoute() {
  const { t } = useTranslation();
  return (
    <AuthLayout
      title={t('login.signIn')}
      heading={t('login.welcomeBack')}
      subheading={t('login.signInToManageYour')}
      aside={<SignInPanel />}
    >
      <LoginForm />
    </AuthLayout>
  );
}
