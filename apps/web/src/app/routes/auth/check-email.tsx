import { useEffect, useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { Inbox, LayoutDashboard, Mail, MousePointerClick, RefreshCw } from 'lucide-react';
import { AuthLayout } from '@/components/layouts/auth-layout';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { constants } from '@/config/messages';
import { paths } from '@/config/paths';
import { useAuthStore } from '@/lib/auth/auth-store';
import { forgotPasswordSchema, validate } from '@/lib/auth/form-schemas';
import { resendWaitSeconds } from '@/lib/auth/resend-wait';
import { useTranslation } from 'react-i18next';

const steps = [
  {
    icon: Inbox,
    title: 'checkEmail.steps.inboxTitle',
    text: 'checkEmail.steps.inboxText',
  },
  {
    icon: MousePointerClick,
    title: 'checkEmail.steps.linkTitle',
    text: 'checkEmail.steps.linkText',
  },
  {
    icon: LayoutDashboard,
    title: 'checkEmail.steps.dashboardTitle',
    text: 'checkEmail.steps.dashboardText',
  },
] as const;

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Countdown {
  until: number;
  now: number;
}

/** Whole seconds left of a countdown started by an event (`start(seconds)`), ticking every second; 0 once passed. */
function useCountdown(): [number, (seconds: number) => void] {
  const [clock, setClock] = useState<Countdown | null>(null);
  const until = clock?.until;
  useEffect(() => {
    if (until === undefined) return;
    const id = setInterval(() => setClock((c) => c && { ...c, now: Date.now() }), 1000);
    return () => clearInterval(id);
  }, [until]);
  const left = clock ? Math.max(0, Math.ceil((clock.until - clock.now) / 1000)) : 0;
  return [left, (seconds) => setClock({ until: Date.now() + seconds * 1000, now: Date.now() })];
}

/** /check-email: shown after sign-up while the account waits for e-mail verification. */
export default function CheckEmailRoute() {
  const { t } = useTranslation();
  const location = useLocation();
  const navigate = useNavigate();
  const pendingEmail = useAuthStore((s) => s.pendingEmail);
  const resendVerification = useAuthStore((s) => s.resendVerification);
  const knownEmail = (location.state as { email?: string } | null)?.email ?? pendingEmail ?? '';
  const [email, setEmail] = useState(knownEmail);
  const [emailError, setEmailError] = useState<string | undefined>();
  const [sending, setSending] = useState(false);
  // The server sends one mail a minute per address: it answers a repeat with the wait, which the page counts down.
  const [secondsLeft, startWait] = useCountdown();

  // The address is checked once the user submits or leaves the field, not on arrival (the field starts empty).
  const check = () => {
    const errors = validate(forgotPasswordSchema, { email });
    setEmailError(errors?.email);
    return !errors;
  };

  async function resend(e?: FormEvent) {
    e?.preventDefault();
    if (!check() || secondsLeft > 0) return;
    setSending(true);
    try {
      // Beyond the spec (whose button only animated), this really resends; 'Sending...' stays for at least 2 s.
      await Promise.all([
        resendVerification(email.trim()).catch((err: unknown) => {
          const seconds = resendWaitSeconds(err);
          if (seconds) startWait(seconds);
        }),
        wait(constants.resendAnimationMs),
      ]);
    } finally {
      setSending(false);
    }
  }

  return (
    <AuthLayout title={t('checkEmail.checkYourEmail')} centered>
      <Card className="overflow-hidden">
        <div className="bg-gradient-to-br from-indigo-600 to-violet-600 px-6 py-8 text-center text-white">
          <div className="mx-auto grid h-14 w-14 place-items-center rounded-full bg-white/15 ring-1 ring-inset ring-white/25">
            <Mail className="h-7 w-7" aria-hidden="true" />
          </div>
          <h1 className="mt-4 text-2xl font-bold tracking-tight">{t('checkEmail.checkYourEmail')}</h1>
          <p className="mt-2 text-sm text-indigo-100">
            {knownEmail ? (
              <>
                {t('checkEmail.weSentAnEmailTo')} <strong className="font-semibold text-white">{knownEmail}</strong>
                {t('checkEmail.aVerificationLinkOrA')}
              </>
            ) : (
              t('checkEmail.weSentYouAnEmail')
            )}
          </p>
        </div>
        <CardContent className="space-y-6">
          <ol className="space-y-4">
            {steps.map((s, i) => (
              <li key={s.title} className="flex gap-4">
                <span className="grid h-9 w-9 shrink-0 place-items-center rounded-full bg-indigo-50 text-indigo-600 ring-1 ring-inset ring-indigo-100">
                  <s.icon className="h-4 w-4" aria-hidden="true" />
                </span>
                <div>
                  <p className="text-sm font-semibold text-slate-900">
                    <span className="sr-only">
                      {t('checkEmail.step')} {i + 1}:{' '}
                    </span>
                    {t(s.title)}
                  </p>
                  <p className="text-sm text-slate-600">{t(s.text)}</p>
                </div>
              </li>
            ))}
          </ol>

          <form onSubmit={resend} noValidate className="space-y-3 border-t border-slate-100 pt-6">
            {!knownEmail && (
              <Field label={t('checkEmail.yourEmailAddress')} error={emailError}>
                <Input
                  type="email"
                  autoComplete="email"
                  value={email}
                  onChange={(e) => {
                    setEmail(e.target.value);
                    setEmailError(undefined);
                  }}
                  onBlur={() => email.trim() && check()}
                />
              </Field>
            )}
            <div className="flex flex-col gap-3 sm:flex-row">
              <Button
                type="submit"
                variant="secondary"
                className="flex-1"
                disabled={sending || secondsLeft > 0}
                aria-describedby={secondsLeft > 0 ? 'resend-wait' : undefined}
              >
                <RefreshCw className={sending ? 'h-4 w-4 animate-spin' : 'h-4 w-4'} aria-hidden="true" />
                {sending ? t('checkEmail.sending') : t('checkEmail.resendVerificationEmail')}
              </Button>
              <Button className="flex-1" onClick={() => navigate(paths.auth.login.getHref())}>
                {t('checkEmail.iVeAlreadyVerified')}
              </Button>
            </div>
            {secondsLeft > 0 && (
              <p
                id="resend-wait"
                role="status"
                className="text-center text-sm text-slate-600"
                data-testid="resend-wait"
              >
                {t('checkEmail.resendWait', { count: secondsLeft })}
              </p>
            )}
          </form>
          <p className="text-center text-sm text-slate-500">
            {t('checkEmail.didnTGetAnything')}{' '}
            <Link to={paths.support.getHref()} className="font-semibold text-indigo-600 hover:text-indigo-500">
              {t('checkEmail.contactSupport')}
            </Link>
          </p>
        </CardContent>
      </Card>
    </AuthLayout>
  );
}
