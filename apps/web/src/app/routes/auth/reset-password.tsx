import { Link, useNavigate, useSearchParams } from 'react-router';
import { Link2Off } from 'lucide-react';
import { AuthLayout } from '@/components/layouts/auth-layout';
import { buttonVariants } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { paths } from '@/config/paths';
import { ResetPasswordForm } from '@/features/auth/components/reset-password-form';
import { useTranslation } from 'react-i18next';

/** /reset-password?token=…: choose a new password; the user is then signed in and sent to the dashboard. */
export default function ResetPasswordRoute() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token');
  const navigate = useNavigate();
  return (
    <AuthLayout title={t('resetPassword.resetPassword')} centered>
      <Card>
        <CardContent className="px-6 py-8 sm:px-10">
          {token ? (
            <>
              <h1 className="text-2xl font-bold tracking-tight text-slate-900">
                {t('resetPassword.chooseANewPassword')}
              </h1>
              <p className="mb-6 mt-2 text-sm text-slate-600">{t('resetPassword.pickAStrongPasswordYou')}</p>
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
              <h1 className="mt-5 text-2xl font-bold text-slate-900">{t('resetPassword.invalidResetLink')}</h1>
              <p className="mt-2 text-sm text-slate-600">{t('resetPassword.thisPasswordResetLinkIs')}</p>
              <Link to={paths.auth.forgotPassword.getHref()} className={buttonVariants({ className: 'mt-6' })}>
                {t('resetPassword.requestANewLink')}
              </Link>
            </div>
          )}
        </CardContent>
      </Card>
    </AuthLayout>
  );
}
