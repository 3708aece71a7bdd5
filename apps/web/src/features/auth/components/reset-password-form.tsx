import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Field } from '@/components/ui/field';
import { PasswordInput } from '@/components/ui/password-input';
import { Alert } from '@/components/ui/alert';
import { messages } from '@/config/messages';
import { errorMessage } from '@/lib/api-client';
import { useAuthStore } from '@/features/auth/stores/auth-store';
import { resetPasswordSchema, validate } from '@/features/auth/api/schemas';
import { PasswordStrength } from './password-strength';

export function ResetPasswordForm({ token, onSuccess }: { token: string; onSuccess?: () => void }) {
  const resetPassword = useAuthStore((s) => s.resetPassword);
  const isLoading = useAuthStore((s) => s.isLoading);
  const [values, setValues] = useState({ password: '', confirmPassword: '' });
  const [errors, setErrors] = useState<{ password?: string; confirmPassword?: string }>({});
  const [formError, setFormError] = useState<string | null>(null);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setFormError(null);
    const found = validate(resetPasswordSchema, values);
    if (found) {
      setErrors(found);
      return;
    }
    try {
      await resetPassword({ token, ...values });
      onSuccess?.();
    } catch (err) {
      setFormError(errorMessage(err, messages.store.reset));
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-5" aria-label="Choose a new password">
      {formError && (
        <Alert tone="error" data-testid="reset-error">
          {formError}
        </Alert>
      )}
      <Field label="New password" error={errors.password}>
        <PasswordInput
          name="password"
          autoComplete="new-password"
          value={values.password}
          onChange={(e) => {
            setValues((v) => ({ ...v, password: e.target.value }));
            setErrors((er) => ({ ...er, password: undefined }));
          }}
          required
        />
      </Field>
      <PasswordStrength password={values.password} />
      <Field label="Confirm new password" error={errors.confirmPassword}>
        <PasswordInput
          name="confirmPassword"
          autoComplete="new-password"
          value={values.confirmPassword}
          onChange={(e) => {
            setValues((v) => ({ ...v, confirmPassword: e.target.value }));
            setErrors((er) => ({ ...er, confirmPassword: undefined }));
          }}
          required
        />
      </Field>
      <Button type="submit" size="lg" className="w-full" isLoading={isLoading}>
        Reset password
      </Button>
    </form>
  );
}
