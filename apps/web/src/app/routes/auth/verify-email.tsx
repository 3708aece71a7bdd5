import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { CheckCircle2, Link2Off, Loader2, XCircle } from 'lucide-react';
import { AuthLayout } from '@/components/layouts/auth-layout';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { constants, messages } from '@/config/messages';
import { paths } from '@/config/paths';
import { errorMessage } from '@/lib/api-client';
import { useAuthStore } from '@/lib/auth/auth-store';
import { useTranslation } from 'react-i18next';

type State = { kind: 'loading' } | { kind: 'success' } | { kind: 'error'; message: string } | { kind: 'no-token' };

/**
 * Verification tokens are single-use: the same token is verified once per page load even when React runs the effect
 * twice (StrictMode) or the component remounts. "Try Again" asks explicitly for a new attempt.
 */
const attempts = new Map<string, Promise<unknown>>();
function verifyOnce(token: string, verify: (t: string) => Promise<unknown>, fresh = false): Promise<unknown> {
  if (fresh || !attempts.has(token)) attempts.set(token, verify(token));
  return attempts.get(token)!;
}

/** /verify-email?token=…: states loading, success (5-second countdown to /dashboard), error, no-token (spec-1 §2). */
export default function VerifyEmailRoute() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const token = params.get('token');
  const navigate = useNavigate();
  const verifyEmail = useAuthStore((s) => s.verifyEmail);
  // The outcome belongs to the token it was for: a new token (or none) shows its own state without an effect
  // having to reset anything.
  const [outcome, setOutcome] = useState<{ token: string; state: State } | null>(null);
  const state: State = !token ? { kind: 'no-token' } : outcome?.token === token ? outcome.state : { kind: 'loading' };
  const [seconds, setSeconds] = useState<number>(constants.verifyRedirectSeconds);
  const retried = useRef(false);

  const verify = useCallback(
    (token: string, fresh: boolean) => {
      let cancelled = false;
      verifyOnce(token, verifyEmail, fresh).then(
        () => {
          if (cancelled) return;
          setSeconds(constants.verifyRedirectSeconds);
          setOutcome({ token, state: { kind: 'success' } });
        },
        (err: unknown) =>
          !cancelled &&
          setOutcome({
            token,
            state: {
              kind: 'error',
              message: errorMessage(err, retried.current ? messages.verify.retryFailure : messages.verify.firstFailure),
            },
          }),
      );
      return () => {
        cancelled = true;
      };
    },
    [verifyEmail],
  );

  useEffect(() => (token ? verify(token, false) : undefined), [token, verify]);

  const retry = () => {
    if (!token) return;
    retried.current = true;
    setOutcome({ token, state: { kind: 'loading' } });
    verify(token, true);
  };

  const goToDashboard = useCallback(() => navigate(paths.app.dashboard.getHref(), { replace: true }), [navigate]);

  // Success: count 5 → 0, then go to the dashboard.
  useEffect(() => {
    if (state.kind !== 'success') return;
    const id = setInterval(() => setSeconds((s) => Math.max(0, s - 1)), 1000);
    return () => clearInterval(id);
  }, [state.kind]);
  useEffect(() => {
    if (state.kind === 'success' && seconds === 0) goToDashboard();
  }, [state.kind, seconds, goToDashboard]);

  return (
    <AuthLayout title={t('verifyEmail.verifyYourEmail')} centered>
      <Card>
        <CardContent className="px-6 py-10 text-center sm:px-10">
          {state.kind === 'loading' && (
            <div aria-live="polite">
              <Loader2 className="mx-auto h-12 w-12 animate-spin text-indigo-600" aria-hidden="true" />
              <h1 className="mt-6 text-2xl font-bold text-slate-900">{t('verifyEmail.verifyingYourEmail')}</h1>
              <p className="mt-2 text-sm text-slate-600">{t('verifyEmail.thisOnlyTakesAMoment')}</p>
            </div>
          )}

          {state.kind === 'success' && (
            <div aria-live="polite">
              <div className="mx-auto grid h-16 w-16 place-items-center rounded-full bg-emerald-100 text-emerald-600">
                <CheckCircle2 className="h-9 w-9" aria-hidden="true" />
              </div>
              <h1 className="mt-6 text-2xl font-bold text-slate-900">{t('verifyEmail.emailVerified')}</h1>
              <p className="mt-2 text-sm text-slate-600">{t('verifyEmail.yourAccountIsActiveWelcome')}</p>
              <p className="mt-6 text-sm text-slate-500" data-testid="verify-countdown">
                {t('verifyEmail.redirectingToYourDashboardIn')}{' '}
                <span className="font-semibold tabular-nums text-slate-900">{seconds}</span> {t('verifyEmail.second')}
                {seconds === 1 ? '' : 's'}…
              </p>
              <div className="mx-auto mt-3 h-1.5 max-w-xs overflow-hidden rounded-full bg-slate-100" aria-hidden="true">
                <div
                  className="h-full rounded-full bg-emerald-500 transition-[width] duration-1000 ease-linear"
                  style={{ width: `${(seconds / constants.verifyRedirectSeconds) * 100}%` }}
                />
              </div>
              <Button className="mt-8" size="lg" onClick={goToDashboard}>
                {t('verifyEmail.goToDashboard')}
              </Button>
            </div>
          )}

          {state.kind === 'error' && (
            <div>
              <div className="mx-auto grid h-16 w-16 place-items-center rounded-full bg-rose-100 text-rose-600">
                <XCircle className="h-9 w-9" aria-hidden="true" />
              </div>
              <h1 className="mt-6 text-2xl font-bold text-slate-900">{t('verifyEmail.verificationFailed')}</h1>
              <p className="mt-2 text-sm text-rose-700" role="alert" data-testid="verify-error">
                {state.message}
              </p>
              <p className="mt-4 text-sm text-slate-600">{t('verifyEmail.thisCanHappenWhenThe')}</p>
              <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
                <Button onClick={retry}>{t('verifyEmail.tryAgain')}</Button>
                <Button variant="secondary" onClick={() => navigate(paths.auth.login.getHref())}>
                  {t('verifyEmail.backToLogin')}
                </Button>
              </div>
            </div>
          )}

          {state.kind === 'no-token' && (
            <div>
              <div className="mx-auto grid h-16 w-16 place-items-center rounded-full bg-amber-100 text-amber-600">
                <Link2Off className="h-8 w-8" aria-hidden="true" />
              </div>
              <h1 className="mt-6 text-2xl font-bold text-slate-900">{t('verifyEmail.invalidVerificationLink')}</h1>
              <p className="mt-2 text-sm text-slate-600">{messages.verify.missingToken}</p>
              <p className="mt-2 text-sm text-slate-500">{messages.verify.missingTokenHint}</p>
              <div className="mt-8 flex flex-col justify-center gap-3 sm:flex-row">
                <Button onClick={() => navigate(paths.auth.register.getHref())}>
                  {t('verifyEmail.createNewAccount')}
                </Button>
                <Button variant="secondary" onClick={() => navigate(paths.auth.login.getHref())}>
                  {t('verifyEmail.iAlreadyHaveAnAccount')}
                </Button>
              </div>
            </div>
          )}
        </CardContent>
      </Card>
    </AuthLayout>
  );
}
