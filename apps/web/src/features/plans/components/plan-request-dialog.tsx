import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { periodDays, type TPlan, type TRequestedPeriod } from '@docflow/contracts';
import { Alert } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Dialog, DialogContent } from '@/components/ui/dialog';
import { Field } from '@/components/ui/field';
import { inputClasses } from '@/components/ui/input';
import { Select } from '@/components/ui/select';
import { errorMessage } from '@/lib/api-client';
import { formatPlanPrice } from '@/lib/plans/format-plan';
import { useCreatePlanRequest } from '../api/plan-requests';
import { requestablePlans, type PlanRequestFlow } from '../hooks/use-plan-request-flow';

/**
 * Ask the administrators for a paid plan: which plan, billed for which period, and a word for them. Without a payment
 * provider this is how a plan is bought; the answer comes in the bell and by mail, and the page shows its state.
 */
export function PlanRequestDialog({ flow, plans }: { flow: PlanRequestFlow; plans: readonly TPlan[] }) {
  const { t } = useTranslation();
  return (
    <Dialog open={flow.open} onOpenChange={(open) => !open && flow.close()}>
      <DialogContent title={t('planRequests.title')} description={t('planRequests.what')}>
        <PlanRequestForm flow={flow} plans={plans} />
      </DialogContent>
    </Dialog>
  );
}

/** Mounted each time the dialog opens, so it starts blank. Contact Sales asks for the largest plan by default. */
function PlanRequestForm({ flow, plans }: { flow: PlanRequestFlow; plans: readonly TPlan[] }) {
  const { t } = useTranslation();
  const choices = requestablePlans(plans);
  const create = useCreatePlanRequest();
  const [planName, setPlanName] = useState(flow.planName ?? choices.at(-1)?.name ?? '');
  const [period, setPeriod] = useState<TRequestedPeriod>('monthly');
  const [message, setMessage] = useState('');

  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate(
      { planName, billingPeriod: period, ...(message.trim() ? { message: message.trim() } : {}) },
      { onSuccess: flow.close },
    );
  };

  return (
    <form className="mt-5 space-y-4" onSubmit={submit} data-testid="plan-request-form">
      <Field label={t('planRequests.plan')}>
        <Select value={planName} onChange={(e) => setPlanName(e.target.value)} required>
          {choices.map((p) => {
            const price = formatPlanPrice(p);
            return (
              <option key={p.name} value={p.name}>
                {p.displayName} · {price.amount}
                {price.period}
              </option>
            );
          })}
        </Select>
      </Field>
      <Field label={t('planRequests.period')}>
        <Select value={period} onChange={(e) => setPeriod(e.target.value as TRequestedPeriod)}>
          {(Object.keys(periodDays) as TRequestedPeriod[]).map((p) => (
            <option key={p} value={p}>
              {t(`planRequests.periods.${p}`)}
            </option>
          ))}
        </Select>
      </Field>
      <Field label={t('planRequests.message')} optional hint={t('planRequests.messageHint')}>
        <textarea
          className={inputClasses}
          rows={4}
          maxLength={2000}
          value={message}
          onChange={(e) => setMessage(e.target.value)}
        />
      </Field>
      {create.isError && <Alert tone="error">{errorMessage(create.error, t('planRequests.failed'))}</Alert>}
      <div className="flex justify-end gap-3 pt-2">
        <Button type="button" variant="secondary" onClick={flow.close} disabled={create.isPending}>
          {t('planRequests.cancel')}
        </Button>
        <Button type="submit" isLoading={create.isPending} disabled={!planName}>
          {t('planRequests.send')}
        </Button>
      </div>
    </form>
  );
}
