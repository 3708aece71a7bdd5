import { useState, type FormEvent } from 'react';
import { useFormValues } from '@/hooks/use-form-values';
import { Link, useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { PasswordInput } from '@/components/ui/password-input';
import { Alert } from '@/components/ui/alert';
import { messages } from '@/config/messages';
import { paths } from '@/config/paths';
import { ApiError } from '@/lib/api-client';
import { useAuthStore } from '@/lib/auth/auth-store';
import { loginSchema, type LoginValues } from '@/lib/auth/form-schemas';
import { useTranslation } from 'react-i18next';

export function LoginForm({ onSuccess }: { onSuccess?: () => void }) {
  const { t } = useTranslation();
  const login = useAuthStore((s) => s.login);
  const isLoading = useAuthStore((s) => s.isLoading);
  const navigate = useNavigate();
  const { values, errors, set, bind, check } = useFormValues<LoginValues>(loginSchema, {
    email: '',
    password: '',
    rememberMe: false,
  });
  const [formError, setFormError] = useState<{ message: string; code?: string } | null>(null);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setFormError(null);
    if (!check()) return;
    try {
      await login({ email: values.email.trim(), password: values.password, rememberMe: values.rememberMe });
      onSuccess?.();
    } catch (err) {
      // Spec-1 §8: the server's error field, else 'Email ou mot de passe incorrect'.
      const server = err instanceof ApiError ? err.serverMessage : undefined;
      setFormError({ message: server ?? messages.login.failure, code: err instanceof ApiError ? err.code : undefined });
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5" aria-label={t('loginForm.signIn')}>
      {formError && (
        <Alert tone="error" data-testid="login-error">
          <p>{formError.message}</p>
          {formError.code === 'EMAIL_NOT_VERIFIED' && (
            <button
              type="button"
              className="mt-1 font-semibold underline underline-offset-2"
              onClick={() => {
                useAuthStore.setState({ pendingEmail: values.email.trim() });
                navigate(paths.auth.checkEmail.getHref(), { state: { email: values.email.trim() } });
              }}
            >
              {t('loginForm.resendTheVerificationEmail')}
            </button>
          )}
        </Alert>
      )}
      <Field label={t('loginForm.emailAddress')} error={errors.email}>
        <Input
          type="email"
          autoComplete="email"
          placeholder={t('loginForm.youCompanyCom')}
          {...bind('email')}
          required
        />
      </Field>
      <Field
        label={t('loginForm.password')}
        error={errors.password}
        aside={
          <Link
            to={paths.auth.forgotPassword.getHref()}
            className="text-sm font-medium text-indigo-600 hover:text-indigo-500"
          >
            {t('loginForm.forgotPassword')}
          </Link>
        }
      >
        <PasswordInput autoComplete="current-password" placeholder="••••••••" {...bind('password')} required />
      </Field>
      <div className="flex items-center gap-2">
        <Checkbox id="remember-me" checked={values.rememberMe} onCheckedChange={(c) => set('rememberMe', c === true)} />
        <label htmlFor="remember-me" className="text-sm text-slate-600">
          {t('loginForm.rememberMe')}
        </label>
      </div>
      <Button type="submit" size="lg" className="w-full" isLoading={isLoading}>
        {t('loginForm.signIn2')}
      </Button>
      <p className="text-center text-sm text-slate-600">
        {t('loginForm.donTHaveAnAccount')}{' '}
        <Link to={paths.auth.register.getHref()} className="font-semibold text-indigo-600 hover:text-indigo-500">
          {t('loginForm.createOneForFree')}
        </Link>
      </p>
    </form>
  );
}
