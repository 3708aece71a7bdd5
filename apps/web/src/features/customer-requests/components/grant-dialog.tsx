import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { periodDays, type TAdminPlanRequest, type TRequestedPeriod } from '@docflow/contracts';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { inputClasses } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { usePlans } from '@/lib/plans/get-plans';
import { useGrantPlanRequest } from '../api/customer-requests';

/** Grant a request: a plan (the one asked for by default) for a period (the one asked for by default). */
export function GrantDialog({ request, onClose }: { request: TAdminPlanRequest | null; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog open={request !== null} onOpenChange={(o) => !o && onClose()}>
      <DialogContent
        title={t('customerRequests.grantTitle')}
        description={request ? t('customerRequests.grantWhat', { user: request.user.email ?? request.user.id }) : ''}
      >
        {request && <GrantForm request={request} onClose={onClose} />}
      </DialogContent>
    </Dialog>
  );
}

/** Mounted each time the dialog opens, on the request's plan and period. */
function GrantForm({ request, onClose }: { request: TAdminPlanRequest; onClose: () => void }) {
  const { t } = useTranslation();
  const plans = usePlans();
  const grant = useGrantPlanRequest();
  const [planName, setPlanName] = useState(request.planName);
  const [period, setPeriod] = useState<TRequestedPeriod>(request.billingPeriod);
  const [note, setNote] = useState('');

  const submit = (e: FormEvent) => {
    e.preventDefault();
    grant.mutate(
      { id: request.id, planName, days: periodDays[period], ...(note.trim() ? { note: note.trim() } : {}) },
      { onSuccess: onClose },
    );
  };

  return (
    <form className="mt-5 space-y-4" onSubmit={submit} data-testid="grant-form">
      <Field label={t('customerRequests.plan')}>
        <Select value={planName} onChange={(e) => setPlanName(e.target.value)}>
          {(plans.data ?? [])
            .filter((p) => p.price > 0)
            .map((p) => (
              <option key={p.name} value={p.name}>
                {p.displayName}
              </option>
            ))}
        </Select>
      </Field>
      <Field label={t('customerRequests.period')}>
        <Select value={period} onChange={(e) => setPeriod(e.target.value as TRequestedPeriod)}>
          {(Object.keys(periodDays) as TRequestedPeriod[]).map((p) => (
            <option key={p} value={p}>
              {t(`customerRequests.periods.${p}`, { days: periodDays[p] })}
            </option>
          ))}
        </Select>
      </Field>
      <Field label={t('customerRequests.note')} optional hint={t('customerRequests.noteHint')}>
        <textarea
          className={inputClasses}
          rows={3}
          maxLength={2000}
          value={note}
          onChange={(e) => setNote(e.target.value)}
        />
      </Field>
      <div className="flex justify-end gap-3 pt-2">
        <Button type="button" variant="secondary" onClick={onClose} disabled={grant.isPending}>
          {t('customerRequests.cancel')}
        </Button>
        <Button type="submit" isLoading={grant.isPending} disabled={!planName}>
          {t('customerRequests.grant')}
        </Button>
      </div>
    </form>
  );
}
