import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ArrowLeft, MailCheck } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { paths } from '@/config/paths';
import { useAuthStore } from '@/lib/auth/auth-store';
import { forgotPasswordSchema, validate } from '@/lib/auth/form-schemas';
import { useTranslation } from 'react-i18next';

export function ForgotPasswordForm() {
  const { t } = useTranslation();
  const forgotPassword = useAuthStore((s) => s.forgotPassword);
  const isLoading = useAuthStore((s) => s.isLoading);
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [sentTo, setSentTo] = useState<string | null>(null);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const errors = validate(forgotPasswordSchema, { email });
    if (errors) {
      setError(errors.email);
      return;
    }
    try {
      await forgotPassword(email.trim());
      setSentTo(email.trim());
    } catch {
      /* the store showed the toast */
    }
  }

  if (sentTo) {
    return (
      <div className="space-y-6 text-center" data-testid="forgot-password-sent">
        <div className="mx-auto grid h-14 w-14 place-items-center rounded-full bg-emerald-100 text-emerald-600">
          <MailCheck className="h-7 w-7" aria-hidden="true" />
        </div>
        <div>
          <h2 className="text-lg font-semibold text-slate-900">{t('forgotPasswordForm.checkYourInbox')}</h2>
          <p className="mt-2 text-sm text-slate-600">
            {t('forgotPasswordForm.ifAnAccountExistsFor')} <strong>{sentTo}</strong>
            {t('forgotPasswordForm.weSentALinkTo')}
          </p>
        </div>
        <div className="flex flex-col gap-3">
          <Button variant="secondary" onClick={() => setSentTo(null)}>
            {t('forgotPasswordForm.useAnotherEmail')}
          </Button>
          <Link to={paths.auth.login.getHref()} className="text-sm font-semibold text-indigo-600 hover:text-indigo-500">
            {t('forgotPasswordForm.backToSignIn')}
          </Link>
        </div>
      </div>
    );
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5" aria-label={t('forgotPasswordForm.resetYourPassword')}>
      <Field label={t('forgotPasswordForm.emailAddress')} error={error}>
        <Input
          type="email"
          name="email"
          autoComplete="email"
          placeholder={t('forgotPasswordForm.youCompanyCom')}
          value={email}
          onChange={(e) => {
            setEmail(e.target.value);
            setError(undefined);
          }}
          required
        />
      </Field>
      <Button type="submit" size="lg" className="w-full px-4 text-sm sm:text-base" isLoading={isLoading}>
        {t('forgotPasswordForm.sendResetLink')}
      </Button>
      <Link
        to={paths.auth.login.getHref()}
        className="flex items-center justify-center gap-1.5 text-sm font-semibold text-indigo-600 hover:text-indigo-500"
      >
        <ArrowLeft className="h-4 w-4" aria-hidden="true" /> {t('forgotPasswordForm.backToSignIn')}
      </Link>
    </form>
  );
}
