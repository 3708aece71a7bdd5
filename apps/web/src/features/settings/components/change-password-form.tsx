import { useState, type FormEvent } from 'react';
import { useFormValues } from '@/hooks/use-form-values';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { PasswordInput } from '@/components/ui/password-input';
import { Alert } from '@/components/ui/alert';
import { messages } from '@/config/messages';
import { errorMessage } from '@/lib/api-client';
import { isFormError, useAuthStore } from '@/lib/auth/auth-store';
import { changePasswordSchema } from '@/lib/auth/form-schemas';
import { PasswordStrength } from '@/components/auth/password-strength';

const empty = { currentPassword: '', newPassword: '', confirmPassword: '' };

export function ChangePasswordForm() {
  const changePassword = useAuthStore((s) => s.changePassword);
  const user = useAuthStore((s) => s.user);
  const { values, errors, bind, check, reset } = useFormValues(changePasswordSchema, empty);
  const [formError, setFormError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setFormError(null);
    if (!check()) return;
    setPending(true);
    try {
      await changePassword(values);
      reset();
    } catch (err) {
      if (isFormError(err)) setFormError(errorMessage(err, messages.store.changePassword));
    } finally {
      setPending(false);
    }
  }

  return (
    <Card>
      <form onSubmit={onSubmit} noValidate aria-label="Change password">
        <CardHeader>
          <CardTitle>Change password</CardTitle>
          <CardDescription>Use at least 8 characters with a mix of letters, numbers and symbols.</CardDescription>
        </CardHeader>
        <CardContent className="space-y-5">
          {formError && (
            <Alert tone="error" data-testid="change-password-error">
              {formError}
            </Alert>
          )}
          <Field label="Current password" error={errors.currentPassword}>
            <PasswordInput autoComplete="current-password" {...bind('currentPassword')} />
          </Field>
          <div className="grid gap-5 sm:grid-cols-2">
            <Field label="New password" error={errors.newPassword}>
              <PasswordInput autoComplete="new-password" {...bind('newPassword')} />
            </Field>
            <Field label="Confirm new password" error={errors.confirmPassword}>
              <PasswordInput autoComplete="new-password" {...bind('confirmPassword')} />
            </Field>
          </div>
          <PasswordStrength password={values.newPassword} email={user?.email} name={user?.name} />
        </CardContent>
        <CardFooter>
          <Button type="submit" isLoading={pending}>
            Update password
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}
