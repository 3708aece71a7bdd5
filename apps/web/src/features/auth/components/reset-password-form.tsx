import { useState, type FormEvent } from 'react';
import { useFormValues } from '@/hooks/use-form-values';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { PasswordInput } from '@/components/ui/password-input';
import { Alert } from '@/components/ui/alert';
import { messages } from '@/config/messages';
import { errorMessage } from '@/lib/api-client';
import { useAuthStore } from '@/lib/auth/auth-store';
import { resetPasswordSchema } from '@/lib/auth/form-schemas';
import { PasswordStrength } from '@/components/auth/password-strength';
import { useTranslation } from 'react-i18next';

export function ResetPasswordForm({ token, onSuccess }: { token: string; onSuccess?: () => void }) {
  const { t } = useTranslation();
  const resetPassword = useAuthStore((s) => s.resetPassword);
  const isLoading = useAuthStore((s) => s.isLoading);
  const { values, errors, bind, check } = useFormValues(resetPasswordSchema, { password: '', confirmPassword: '' });
  const [formError, setFormError] = useState<string | null>(null);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setFormError(null);
    if (!check()) return;
    try {
      await resetPassword({ token, ...values });
      onSuccess?.();
    } catch (err) {
      setFormError(errorMessage(err, messages.store.reset));
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5" aria-label={t('resetPasswordForm.chooseANewPassword')}>
      {formError && (
        <Alert tone="error" data-testid="reset-error">
          {formError}
        </Alert>
      )}
      <Field label={t('resetPasswordForm.newPassword')} error={errors.password}>
        <PasswordInput autoComplete="new-password" {...bind('password')} required />
      </Field>
      <PasswordStrength password={values.password} />
      <Field label={t('resetPasswordForm.confirmNewPassword')} error={errors.confirmPassword}>
        <PasswordInput autoComplete="new-password" {...bind('confirmPassword')} required />
      </Field>
      <Button type="submit" size="lg" className="w-full" isLoading={isLoading}>
        {t('resetPasswordForm.resetPassword')}
      </Button>
    </form>
  );
}
