import { AuthLayout } from '@/components/layouts/auth-layout';
import { SignInPanel } from '@/features/auth/components/auth-asides';
import { LoginForm } from '@/features/auth/components/login-form';

/** /login: once signed in, the visitors-only gate sends the user on to /dashboard (or the page they came from). */
export default function LoginRoute() {
  return (
    <AuthLayout
      title="Sign in"
      heading="Welcome back"
      subheading="Sign in to manage your API keys and usage."
      aside={<SignInPanel />}
    >
      <LoginForm />
    </AuthLayout>
  );
}
