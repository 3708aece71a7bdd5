import { useState, type FormEvent } from 'react';
import type { TApiKey } from '@docflow/contracts';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { Input } from '@/components/ui/input';
import { fieldErrors } from '@/lib/api-client';
import { useTranslation } from 'react-i18next';
import { useUpdateApiKey } from '../api/update-api-key';
import { formatCount, formatDate, keyPlanName, maskKey } from '../utils/key-display';
import {
  expiryDay,
  expiryOfDay,
  expiryProblem,
  latestExpiryDay,
  tomorrowDay,
  validityDaysOf,
} from '../utils/key-expiry';

/**
 * A key's settings, from its card's menu: its name and its expiry (PUT /my/api-keys/{id}; the server holds the
 * expiry to what the key's plan allows), and what it may do (its limits, read-only: they come from its plan, or from
 * the admin who made a custom key).
 */
export function KeySettingsDialog({
  apiKey,
  planValidityDays,
  onClose,
}: {
  apiKey: TApiKey | null;
  /** The validity of the key's plan (plans list), so the day the server would refuse is refused here first. */
  planValidityDays?: number | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [saving, setSaving] = useState(false);
  return (
    <Dialog open={apiKey !== null} onOpenChange={(open) => !open && !saving && onClose()}>
      <DialogContent
        title={t('keySettingsDialog.title')}
        description={apiKey ? maskKey(apiKey.keyPrefix, apiKey.keyLastFour) : undefined}
        className="max-h-[calc(100dvh-2rem)] max-w-lg overflow-y-auto"
        data-testid="key-settings-dialog"
      >
        {/* Keyed by the key: another key's settings start from its own name, with no error left over. */}
        {apiKey && (
          <KeySettingsForm
            key={apiKey.id}
            apiKey={apiKey}
            validityDays={validityDaysOf(apiKey, planValidityDays)}
            onClose={onClose}
            onSaving={setSaving}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}

function KeySettingsForm({
  apiKey,
  validityDays,
  onClose,
  onSaving,
}: {
  apiKey: TApiKey;
  validityDays: number | null;
  onClose: () => void;
  onSaving: (saving: boolean) => void;
}) {
  const { t } = useTranslation();
  const update = useUpdateApiKey();
  const [name, setName] = useState(apiKey.name);
  const initialExpiry = expiryDay(apiKey.expiresAt);
  const [expiry, setExpiry] = useState(initialExpiry);
  const [expiryError, setExpiryError] = useState<string | undefined>();
  const serverErrors = fieldErrors(update.error);
  const nameChanged = name.trim() !== apiKey.name;
  const expiryChanged = expiry !== initialExpiry;
  const latest = latestExpiryDay(apiKey, validityDays);
  // A key with a validity must expire, by its last day: what the server would refuse is refused here first.
  const mustExpire = validityDays !== null;
  const unchanged = !nameChanged && !expiryChanged;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (unchanged) return;
    const problem = expiryChanged ? expiryProblem(expiry, mustExpire ? latest : undefined) : undefined;
    setExpiryError(problem && t(problem, { date: formatDate(expiryOfDay(latest)) }));
    if (problem) return;
    onSaving(true);
    update.mutate(
      {
        id: apiKey.id,
        ...(nameChanged ? { name: name.trim() } : {}),
        ...(expiryChanged ? { expiresAt: expiry ? expiryOfDay(expiry) : null } : {}),
      },
      { onSuccess: onClose, onSettled: () => onSaving(false) },
    );
  };
  const limits = apiKey.limits;
  const rows: Array<[string, string]> = [
    [t('keySettingsDialog.plan'), keyPlanName(apiKey)],
    [t('keySettingsDialog.perMinute'), formatCount(limits.maxRequestsPerMinute)],
    [t('keySettingsDialog.perHour'), formatCount(limits.maxRequestsPerHour)],
    [t('keySettingsDialog.perMonth'), formatCount(limits.maxRequestsPerMonth)],
    [
      t('keySettingsDialog.fileSize'),
      t('keySettingsDialog.megabytes', { count: Math.round(limits.maxFileSize / (1024 * 1024)) }),
    ],
    [
      t('keySettingsDialog.pagesPerPdf'),
      limits.maxPagesPerPdf === null ? t('keySettingsDialog.noLimit') : formatCount(limits.maxPagesPerPdf),
    ],
  ];

  return (
    <form onSubmit={submit} className="mt-5 space-y-5" noValidate>
      <Field label={t('keySettingsDialog.name')} error={serverErrors.name}>
        <Input value={name} onChange={(e) => setName(e.target.value)} maxLength={100} autoComplete="off" />
      </Field>
      <Field
        label={t('keySettingsDialog.expiry')}
        error={expiryError ?? serverErrors.expiresAt}
        hint={
          expiry
            ? t('keySettingsDialog.expiresOn', { date: formatDate(expiryOfDay(expiry)) })
            : t('keySettingsDialog.neverExpires')
        }
        aside={
          // Keys with a validity cannot be made to live for ever: the server would refuse it.
          expiry && !mustExpire ? (
            <button
              type="button"
              className="text-xs font-medium text-indigo-600 hover:text-indigo-500"
              onClick={() => {
                setExpiry('');
                setExpiryError(undefined);
              }}
            >
              {t('keySettingsDialog.clearExpiry')}
            </button>
          ) : null
        }
      >
        <Input
          type="date"
          value={expiry}
          min={tomorrowDay()}
          max={latest}
          onChange={(e) => {
            setExpiry(e.target.value);
            setExpiryError(undefined);
          }}
          data-testid="key-expiry-input"
        />
      </Field>
      <div>
        <h3 className="text-sm font-semibold text-slate-900">{t('keySettingsDialog.whatItMayDo')}</h3>
        <p className="mt-0.5 text-xs text-slate-500">{t('keySettingsDialog.limitsComeFrom')}</p>
        <dl className="mt-3 grid grid-cols-1 gap-x-4 gap-y-2 text-sm sm:grid-cols-2" data-testid="key-settings-limits">
          {rows.map(([label, value]) => (
            <div key={label} className="flex justify-between gap-3 border-b border-slate-100 pb-1.5">
              <dt className="text-slate-500">{label}</dt>
              <dd className="text-right font-medium text-slate-900">{value}</dd>
            </div>
          ))}
        </dl>
      </div>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onClose} disabled={update.isPending}>
          {t('keySettingsDialog.cancel')}
        </Button>
        <Button type="submit" disabled={unchanged || !name.trim()} isLoading={update.isPending}>
          {t('keySettingsDialog.save')}
        </Button>
      </div>
    </form>
  );
}
