import { useState, type FormEvent } from 'react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { PasswordInput } from '@/components/ui/password-input';
import { Alert } from '@/components/ui/alert';
import { messages } from '@/config/messages';
import { errorMessage } from '@/lib/api-client';
import { isFormError, useAuthStore } from '@/features/auth/stores/auth-store';
import { changePasswordSchema, validate } from '@/features/auth/api/schemas';
import { PasswordStrength } from '@/features/auth/components/password-strength';

const empty = { currentPassword: '', newPassword: '', confirmPassword: '' };
type Values = typeof empty;

export function ChangePasswordForm() {
  const changePassword = useAuthStore((s) => s.changePassword);
  const user = useAuthStore((s) => s.user);
  const [values, setValues] = useState<Values>(empty);
  const [errors, setErrors] = useState<Partial<Record<keyof Values, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);

  const set = (k: keyof Values, v: string) => {
    setValues((s) => ({ ...s, [k]: v }));
    setErrors((e) => ({ ...e, [k]: undefined }));
  };

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setFormError(null);
    const found = validate(changePasswordSchema, values);
    if (found) {
      setErrors(found);
      return;
    }
    setPending(true);
    try {
      await changePassword(values);
      setValues(empty);
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
            <PasswordInput
              name="currentPassword"
              autoComplete="current-password"
              value={values.currentPassword}
              onChange={(e) => set('currentPassword', e.target.value)}
            />
          </Field>
          <div className="grid gap-5 sm:grid-cols-2">
            <Field label="New password" error={errors.newPassword}>
              <PasswordInput
                name="newPassword"
                autoComplete="new-password"
                value={values.newPassword}
                onChange={(e) => set('newPassword', e.target.value)}
              />
            </Field>
            <Field label="Confirm new password" error={errors.confirmPassword}>
              <PasswordInput
                name="confirmPassword"
                autoComplete="new-password"
                value={values.confirmPassword}
                onChange={(e) => set('confirmPassword', e.target.value)}
              />
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
