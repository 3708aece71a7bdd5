import { useMemo, useState, type FormEvent } from 'react';
import type { TUser } from '@docflow/contracts';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from '@/components/ui/card';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { Alert } from '@/components/ui/alert';
import { ApiError, fieldErrors } from '@/lib/api-client';
import { useUpdateProfile } from '@/features/settings/api/profile';
import {
  browserTimeZone,
  countryOptions,
  languageOptions,
  timeZoneOptions,
  withCurrent,
} from '@/features/settings/utils/locale-options';
import { useTranslation } from 'react-i18next';

interface Values {
  name: string;
  company: string;
  country: string;
  timezone: string;
  language: string;
}

const fromUser = (u: TUser | null): Values => ({
  name: u?.name ?? '',
  company: u?.company ?? '',
  country: u?.country ?? '',
  timezone: u?.timezone ?? '',
  language: u?.language ?? '',
});

export function ProfileForm({ user }: { user: TUser | null }) {
  const { t } = useTranslation();
  const update = useUpdateProfile();
  const [values, setValues] = useState<Values>(() => fromUser(user));
  const [nameError, setNameError] = useState<string | undefined>();
  const [formError, setFormError] = useState<string | null>(null);
  const zones = useMemo(() => timeZoneOptions().map((z) => ({ value: z, label: z.replace(/_/g, ' ') })), []);
  const detected = browserTimeZone();

  // Follow the server's copy when it changes (after save or start-up refresh), during render rather than in an
  // effect so the stale values are never shown.
  const [shownUser, setShownUser] = useState(user);
  if (shownUser !== user) {
    setShownUser(user);
    setValues(fromUser(user));
  }

  const dirty = JSON.stringify(values) !== JSON.stringify(fromUser(user));
  const set = (k: keyof Values, v: string) => setValues((s) => ({ ...s, [k]: v }));

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    setFormError(null);
    const name = values.name.trim();
    if (name.length < 2) {
      setNameError(name ? t('profileForm.nameTooShort') : t('profileForm.nameRequired'));
      return;
    }
    try {
      await update.mutateAsync({
        name,
        company: values.company.trim() || null,
        country: values.country || null,
        timezone: values.timezone || null,
        language: values.language || null,
      });
    } catch (err) {
      if (err instanceof ApiError && err.status === 422) {
        const fields = fieldErrors(err);
        if (fields.name) setNameError(fields.name);
        else setFormError(Object.values(fields)[0] ?? err.serverMessage ?? err.message);
      }
    }
  }

  return (
    <Card>
      <form onSubmit={onSubmit} noValidate aria-label={t('profileForm.profile')}>
        <CardHeader>
          <CardTitle>{t('profileForm.profile')}</CardTitle>
          <CardDescription>{t('profileForm.howYouAppearInDocflow')}</CardDescription>
        </CardHeader>
        <CardContent className="grid gap-5 sm:grid-cols-2">
          {formError && (
            <Alert className="sm:col-span-2" tone="error">
              {formError}
            </Alert>
          )}
          <Field label={t('profileForm.fullName')} error={nameError}>
            <Input
              name="name"
              autoComplete="name"
              value={values.name}
              onChange={(e) => {
                set('name', e.target.value);
                setNameError(undefined);
              }}
            />
          </Field>
          <Field label={t('profileForm.emailAddress')} hint={t('profileForm.contactSupportToChangeYour')}>
            <Input value={user?.email ?? ''} disabled readOnly />
          </Field>
          <Field label={t('profileForm.company')} optional>
            <Input
              name="company"
              autoComplete="organization"
              value={values.company}
              onChange={(e) => set('company', e.target.value)}
            />
          </Field>
          <Field label={t('profileForm.country')} optional>
            <Select name="country" value={values.country} onChange={(e) => set('country', e.target.value)}>
              <option value="">{t('profileForm.notSet')}</option>
              {withCurrent(countryOptions, values.country).map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </Select>
          </Field>
          <Field
            label={t('profileForm.timeZone')}
            optional
            aside={
              detected && values.timezone !== detected ? (
                <button
                  type="button"
                  className="text-xs font-semibold text-indigo-600 hover:text-indigo-500"
                  onClick={() => set('timezone', detected)}
                >
                  {t('profileForm.use')} {detected.replace(/_/g, ' ')}
                </button>
              ) : undefined
            }
          >
            <Select name="timezone" value={values.timezone} onChange={(e) => set('timezone', e.target.value)}>
              <option value="">{t('profileForm.notSet')}</option>
              {withCurrent(zones, values.timezone).map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </Select>
          </Field>
          <Field label={t('profileForm.language')} optional>
            <Select name="language" value={values.language} onChange={(e) => set('language', e.target.value)}>
              <option value="">{t('profileForm.notSet')}</option>
              {withCurrent(languageOptions, values.language).map((o) => (
                <option key={o.value} value={o.value}>
                  {o.label}
                </option>
              ))}
            </Select>
          </Field>
        </CardContent>
        <CardFooter>
          <Button variant="ghost" disabled={!dirty || update.isPending} onClick={() => setValues(fromUser(user))}>
            {t('profileForm.cancel')}
          </Button>
          <Button type="submit" isLoading={update.isPending} disabled={!dirty}>
            {t('profileForm.saveChanges')}
          </Button>
        </CardFooter>
      </form>
    </Card>
  );
}
