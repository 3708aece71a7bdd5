import { useState, type FormEvent } from 'react';
import { useFormValues } from '@/hooks/use-form-values';
import { Link } from 'react-router';
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
import { registerSchema, type RegisterValues } from '@/lib/auth/form-schemas';
import { PasswordStrength } from '@/components/auth/password-strength';
import { useTranslation } from 'react-i18next';

export interface RegisterFormProps {
  /** Called after the account is created; `verificationRequired` when the server sent no tokens. */
  onSuccess?: (result: { verificationRequired: boolean; email: string }) => void;
}

/** Spec-1 §8: the server's error field, else the error's message, else 'Registration failed. Please try again.' */
function registerFailure(err: unknown): string {
  if (err instanceof ApiError) return err.serverMessage ?? err.message ?? messages.register.failure;
  if (err instanceof Error && err.message) return err.message;
  return messages.register.failure;
}

export function RegisterForm({ onSuccess }: RegisterFormProps) {
  const { t } = useTranslation();
  const register = useAuthStore((s) => s.register);
  const isLoading = useAuthStore((s) => s.isLoading);
  const { values, errors, set, bind, check, showServerErrors } = useFormValues<RegisterValues>(registerSchema, {
    name: '',
    email: '',
    company: '',
    password: '',
    confirmPassword: '',
    acceptTerms: false,
  });
  const [formError, setFormError] = useState<string | null>(null);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setFormError(null);
    if (!check()) return;
    try {
      const email = values.email.trim();
      const result = await register({
        name: values.name.trim(),
        email,
        company: values.company?.trim() || undefined,
        password: values.password,
        confirmPassword: values.confirmPassword,
        acceptTerms: values.acceptTerms,
      });
      onSuccess?.({ verificationRequired: result.verificationRequired, email });
    } catch (err) {
      if (!showServerErrors(err)) setFormError(registerFailure(err));
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5" aria-label={t('registerForm.createYourAccount')}>
      {formError && (
        <Alert tone="error" data-testid="register-error">
          {formError}
        </Alert>
      )}
      <div className="grid gap-5 sm:grid-cols-2">
        <Field label={t('registerForm.fullName')} error={errors.name} className="sm:col-span-2">
          <Input autoComplete="name" placeholder={t('registerForm.adaLovelace')} {...bind('name')} required />
        </Field>
        <Field label={t('registerForm.emailAddress')} error={errors.email}>
          <Input
            type="email"
            autoComplete="email"
            placeholder={t('registerForm.youCompanyCom')}
            {...bind('email')}
            required
          />
        </Field>
        <Field label={t('registerForm.company')} optional error={errors.company}>
          <Input autoComplete="organization" placeholder={t('registerForm.acmeInc')} {...bind('company')} />
        </Field>
        <Field label={t('registerForm.password')} error={errors.password} className="sm:col-span-2">
          <PasswordInput
            autoComplete="new-password"
            placeholder={t('registerForm.createAStrongPassword')}
            {...bind('password')}
            required
          />
        </Field>
        <div className="sm:col-span-2 -mt-2">
          <PasswordStrength password={values.password} email={values.email} name={values.name} />
        </div>
        <Field label={t('registerForm.confirmPassword')} error={errors.confirmPassword} className="sm:col-span-2">
          <PasswordInput
            autoComplete="new-password"
            placeholder={t('registerForm.repeatYourPassword')}
            {...bind('confirmPassword')}
            required
          />
        </Field>
      </div>
      <div className="space-y-1.5">
        <div className="flex items-start gap-2">
          <Checkbox
            id="accept-terms"
            className="mt-0.5"
            checked={values.acceptTerms}
            onCheckedChange={(c) => set('acceptTerms', c === true)}
            invalid={!!errors.acceptTerms}
            aria-describedby={errors.acceptTerms ? 'accept-terms-error' : undefined}
          />
          <label htmlFor="accept-terms" className="text-sm text-slate-600">
            {t('registerForm.iAgreeToThe')}{' '}
            <Link to={paths.terms.getHref()} className="font-medium text-indigo-600 hover:text-indigo-500">
              {t('registerForm.termsOfService')}
            </Link>{' '}
            {t('registerForm.and')}{' '}
            <Link to={paths.privacy.getHref()} className="font-medium text-indigo-600 hover:text-indigo-500">
              {t('registerForm.privacyPolicy')}
            </Link>
          </label>
        </div>
        {errors.acceptTerms && (
          <p id="accept-terms-error" role="alert" className="text-sm text-rose-600">
            {errors.acceptTerms}
          </p>
        )}
      </div>
      <Button type="submit" size="lg" className="w-full" isLoading={isLoading}>
        {t('registerForm.createAccount')}
      </Button>
      <p className="text-center text-sm text-slate-600">
        {t('registerForm.alreadyHaveAnAccount')}{' '}
        <Link to={paths.auth.login.getHref()} className="font-semibold text-indigo-600 hover:text-indigo-500">
          {t('registerForm.signIn')}
        </Link>
      </p>
    </form>
  );
}
