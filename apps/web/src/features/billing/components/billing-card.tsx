import { CreditCard, ExternalLink, FileDown } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import type { TBillingInterval, TBillingState, TBillingSubscription } from '@docflow/contracts';
import { Alert } from '@/components/ui/alert';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { SectionCard } from '@/components/ui/section-card';
import { DataTable } from '@/components/ui/table';
import { formatDate } from '@/utils/format';
import { isHolding } from '../api/get-billing';
import { useOpenPortal } from '../api/open-billing-page';
import { formatAmount } from '../utils/format-billing';

const statusTone = (status: string) =>
  status === 'active' || status === 'trialing'
    ? ('green' as const)
    : status === 'past_due' || status === 'unpaid'
      ? ('amber' as const)
      : ('slate' as const);

/** What happens at the period's end: renewal, the end of a trial, the end after a cancellation or a failed payment. */
function PeriodNote({ sub }: { sub: TBillingSubscription }) {
  const { t } = useTranslation();
  const date = (iso: string | null) => formatDate(iso);
  if (sub.endedAt) return <>{t('billing.card.endedOn', { date: date(sub.endedAt) })}</>;
  if (sub.graceUntil) return <>{t('billing.card.grace', { date: date(sub.graceUntil) })}</>;
  if (sub.cancelAtPeriodEnd) return <>{t('billing.card.endsOn', { date: date(sub.currentPeriodEnd) })}</>;
  if (sub.status === 'trialing') return <>{t('billing.card.trialEnds', { date: date(sub.currentPeriodEnd) })}</>;
  return <>{t('billing.card.renews', { date: date(sub.currentPeriodEnd) })}</>;
}

export interface BillingCardProps {
  state: TBillingState;
  /** The interval Upgrade buys, when some plan has a yearly price. */
  interval: TBillingInterval;
  onIntervalChange: (interval: TBillingInterval) => void;
  /** Plans the user is trying (a running trial) that can be bought: paying keeps the trial's days. */
  trials?: Array<{ planName: string; planDisplayName: string }>;
  onSubscribe?: (planName: string) => void;
}

/** The plans page's billing card (Stripe only): the subscription and its period, the next invoice, past invoices. */
export function BillingCard({ state, interval, onIntervalChange, trials = [], onSubscribe }: BillingCardProps) {
  const { t } = useTranslation();
  const portal = useOpenPortal();
  const sub = state.subscription;
  const hasYearly = state.plans.some((p) => p.intervals.includes('yearly'));
  const canManage = sub !== null || state.invoices.length > 0;
  // A live subscription can be changed or cancelled in the portal: each button opens it on that task.
  const live = sub !== null && !sub.endedAt && isHolding(sub.status);
  const inGrace = live && sub.graceUntil !== null;

  return (
    <SectionCard
      title={t('billing.card.title')}
      description={t('billing.card.subtitle')}
      action={
        canManage && (
          <Button
            variant="secondary"
            size="sm"
            onClick={() => portal.mutate(undefined)}
            isLoading={portal.isPending && portal.variables === undefined}
          >
            {!(portal.isPending && portal.variables === undefined) && (
              <CreditCard className="h-4 w-4" aria-hidden="true" />
            )}
            {t('billing.card.manage')}
          </Button>
        )
      }
    >
      <div className="space-y-5 px-5 py-4" data-testid="billing-card">
        {hasYearly && (
          <div
            role="radiogroup"
            aria-label={t('billing.card.period')}
            className="inline-flex rounded-lg bg-slate-100 p-1"
          >
            {(['monthly', 'yearly'] as const).map((i) => (
              <button
                key={i}
                type="button"
                role="radio"
                aria-checked={interval === i}
                onClick={() => onIntervalChange(i)}
                className={
                  interval === i
                    ? 'rounded-md bg-white px-3 py-1 text-sm font-medium text-slate-900 shadow-sm'
                    : 'rounded-md px-3 py-1 text-sm text-slate-600'
                }
              >
                {t(`billing.card.interval.${i}`)}
              </button>
            ))}
          </div>
        )}
        {inGrace && (
          <Alert tone="error" title={t('billing.card.graceTitle')} data-testid="billing-grace">
            <p>{t('billing.card.graceText', { date: formatDate(sub.graceUntil) })}</p>
            <Button
              size="sm"
              className="mt-2"
              onClick={() => portal.mutate('payment_method_update')}
              isLoading={portal.isPending && portal.variables === 'payment_method_update'}
            >
              {t('billing.card.updateCard')}
            </Button>
          </Alert>
        )}
        {!sub ? (
          <div className="space-y-3">
            <p className="text-sm text-slate-600">{t('billing.card.noSubscription')}</p>
            {onSubscribe &&
              trials.map((trial) => (
                <Button key={trial.planName} size="sm" onClick={() => onSubscribe(trial.planName)}>
                  {t('billing.card.convert', { plan: trial.planDisplayName })}
                </Button>
              ))}
          </div>
        ) : (
          <dl className="grid gap-4 sm:grid-cols-3">
            <div>
              <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{t('billing.card.plan')}</dt>
              <dd className="mt-1 flex items-center gap-2 font-semibold text-slate-900" data-testid="billing-plan">
                {sub.planDisplayName}
                <span className="text-sm font-normal text-slate-500">{t(`billing.card.interval.${sub.interval}`)}</span>
                <Badge tone={statusTone(sub.status)} data-testid="billing-status">
                  {t(`billing.card.status.${sub.status}`, { defaultValue: sub.status })}
                </Badge>
              </dd>
            </div>
            <div>
              <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">{t('billing.card.period')}</dt>
              <dd className="mt-1 text-sm text-slate-900" data-testid="billing-period">
                {t('billing.card.periodRange', {
                  start: formatDate(sub.currentPeriodStart),
                  end: formatDate(sub.currentPeriodEnd),
                })}
              </dd>
              <dd className="mt-0.5 text-xs text-slate-500" data-testid="billing-period-note">
                <PeriodNote sub={sub} />
              </dd>
            </div>
            <div>
              <dt className="text-xs font-medium uppercase tracking-wide text-slate-500">
                {t('billing.card.nextInvoice')}
              </dt>
              <dd className="mt-1 text-sm text-slate-900" data-testid="billing-next-invoice">
                {state.nextInvoice
                  ? t('billing.card.nextInvoiceValue', {
                      amount: formatAmount(state.nextInvoice.amount, state.nextInvoice.currency),
                      date: formatDate(state.nextInvoice.date),
                    })
                  : t('billing.card.noNextInvoice')}
              </dd>
            </div>
          </dl>
        )}
        {live && !sub.cancelAtPeriodEnd && (
          <div className="flex flex-wrap gap-2" data-testid="billing-actions">
            <Button
              variant="secondary"
              size="sm"
              onClick={() => portal.mutate('subscription_update')}
              isLoading={portal.isPending && portal.variables === 'subscription_update'}
            >
              {t('billing.card.changePlan')}
            </Button>
            <Button
              variant="danger-outline"
              size="sm"
              onClick={() => portal.mutate('subscription_cancel')}
              isLoading={portal.isPending && portal.variables === 'subscription_cancel'}
            >
              {t('billing.card.cancelPlan')}
            </Button>
          </div>
        )}
        {canManage && (
          <div>
            <h3 className="mb-2 text-sm font-semibold text-slate-900">{t('billing.card.invoices')}</h3>
            {!state.invoicesAvailable ? (
              <p className="text-sm text-amber-700">{t('billing.card.invoicesUnavailable')}</p>
            ) : state.invoices.length === 0 ? (
              <p className="text-sm text-slate-600">{t('billing.card.noInvoices')}</p>
            ) : (
              <DataTable
                minWidth={560}
                columns={[
                  { label: t('billing.card.columns.number') },
                  { label: t('billing.card.columns.date') },
                  { label: t('billing.card.columns.amount'), align: 'right' },
                  { label: t('billing.card.columns.status') },
                  { label: t('billing.card.columns.documents') },
                ]}
              >
                {state.invoices.map((inv) => {
                  const number = inv.number ?? inv.id;
                  return (
                    <tr key={inv.id} className="border-b border-slate-50 last:border-0" data-testid="billing-invoice">
                      <td className="px-5 py-2.5 font-mono text-xs">{number}</td>
                      <td className="px-5 py-2.5">{formatDate(inv.date)}</td>
                      <td className="px-5 py-2.5 text-right">{formatAmount(inv.amount, inv.currency)}</td>
                      <td className="px-5 py-2.5">
                        {inv.status ? t(`billing.card.invoiceStatus.${inv.status}`, { defaultValue: inv.status }) : '—'}
                      </td>
                      <td className="flex gap-3 px-5 py-2.5">
                        {inv.pdfUrl && (
                          <a
                            href={inv.pdfUrl}
                            target="_blank"
                            rel="noreferrer"
                            aria-label={t('billing.card.pdfOf', { number })}
                            className="inline-flex items-center gap-1 text-indigo-600 hover:underline"
                          >
                            <FileDown className="h-4 w-4" aria-hidden="true" />
                            {t('billing.card.pdf')}
                          </a>
                        )}
                        {inv.hostedInvoiceUrl && (
                          <a
                            href={inv.hostedInvoiceUrl}
                            target="_blank"
                            rel="noreferrer"
                            aria-label={t('billing.card.viewOf', { number })}
                            className="inline-flex items-center gap-1 text-indigo-600 hover:underline"
                          >
                            <ExternalLink className="h-4 w-4" aria-hidden="true" />
                            {t('billing.card.view')}
                          </a>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </DataTable>
            )}
          </div>
        )}
      </div>
    </SectionCard>
  );
}
