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
import { useTranslation } from 'react-i18next';

const empty = { currentPassword: '', newPassword: '', confirmPassword: '' };

export function ChangePasswordForm() {
  const { t } = useTranslation();
  const changePassword = useAuthStore((s) => s.changePassword);
  const user = useAuthStore((s) => s.user);
  const { values, errors, bind, check, reset, showServerErrors } = useFormValues(changePasswordSchema, empty);
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
      if (isFormError(err) && !showServerErrors(err)) setFormError(errorMessage(err, messages.store.changePassword));
    } finally {
      setPending(false);
    }
  }

  return (
    <Card>
      <form onSubmit={onSubmit} noValidate aria-label={t('changePasswordForm.changePassword')}>
        <CardHeader>
          <CardTitle>{t('changePasswordForm.changePassword')}</CardTitle>
          <CardDescription>{t('changePasswordForm.useAtLeast8Characters')}</CardDescription>
        </CardHeader>
        <CardContent className="space-y-5">
          {formError && (
            <Alert tone="error" data-testid="change-password-error">
              {formError}
            </Alert>
          )}
          <Field label={t('changePasswordForm.currentPassword')} error={errors.currentPassword}>
            <PasswordInput autoComplete="current-password" {...bind('currentPassword')} />
          </Field>
          <div className="grid gap-5 sm:grid-cols-2">
            <Field label={t('changePasswordForm.newPassword')} error={errors.newPassword}>
              <PasswordInput autoComplete="new-password" {...bind('newPassword')} />
            </Field>
            <Field label={t('changePasswordForm.confirmNewPassword')} error={errors.confirmPassword}>
              <PasswordInput autoComplete="new-password" {...bind('confirmPassword')} />
            </Field>
          </div>
          <PasswordStrength password={values.newPassword} email={user?.email} name={user?.name} />
        </CardContent>
        <CardFooter>
          <Button type="submit" isLoading={pending}>
            {t('changePasswordForm.updatePassword')}
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}
