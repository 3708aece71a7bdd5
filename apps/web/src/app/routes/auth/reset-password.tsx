import { Link, useNavigate, useSearchParams } from 'react-router';
import { Link2Off } from 'lucide-react';
import { AuthLayout } from '@/components/layouts/auth-layout';
import { buttonVariants } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { ResetPasswordForm } from '@/features/auth/components/reset-password-form';

/** /reset-password?token=…: choose a new password; the user is then signed in and sent to the dashboard. */
export default function ResetPasswordRoute() {
  const [params] = useSearchParams();
  const token = params.get('token');
  const navigate = useNavigate();
  return (
    <AuthLayout title="Reset password" centered>
      <Card>
        <CardContent className="px-6 py-8 sm:px-10">
          {token ? (
            <>
              <h1 className="text-2xl font-bold tracking-tight text-slate-900">Choose a new password</h1>
              <p className="mb-6 mt-2 text-sm text-slate-600">
                Pick a strong password you don&apos;t use anywhere else.
              </p>
              <ResetPasswordForm
                token={token}
                onSuccess={() => navigate(paths.app.dashboard.getHref(), { replace: true })}
              />
            </>
          ) : (
            <div className="text-center">
              <div className="mx-auto grid h-14 w-14 place-items-center rounded-full bg-amber-100 text-amber-600">
                <Link2Off className="h-7 w-7" aria-hidden="true" />
              </div>
              <h1 className="mt-5 text-2xl font-bold text-slate-900">Invalid reset link</h1>
              <p className="mt-2 text-sm text-slate-600">
                This password-reset link is invalid or incomplete. Make sure to open the complete link from your email,
                or ask for a new one.
              </p>
              <Link to={paths.auth.forgotPassword.getHref()} className={buttonVariants({ className: 'mt-6' })}>
                Request a new link
              </Link>
            </div>
          )}
        </CardContent>
      </Card>
    </AuthLayout>
  );
}
