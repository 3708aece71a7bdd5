import { useMemo, useState, type ReactNode } from 'react';
import { AlertCircle, Headset, Inbox, Loader2, RefreshCw, ShieldCheck } from 'lucide-react';
import type { TApiKey, TPlan, TUser } from '@docflow/contracts';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { messages } from '@/config/messages';
import { isApiError } from '@/lib/api-client';
import { useUser } from '@/lib/auth/auth-store';
import { usePlans } from '@/lib/plans/get-plans';
import { useStartTrial } from '../api/start-trial';
import { ownsPlan, resolvePlanOwnership } from '@/lib/plans/plan-ownership';
import { visiblePlans } from '@/lib/plans/format-plan';
import { TrialConfirmDialog } from './trial-confirm-dialog';
import { PlanRequestDialog } from './plan-request-dialog';
import { PlanRequestsPanel } from './plan-requests-panel';
import { trialSpent, usePlanRequestFlow } from '../hooks/use-plan-request-flow';
import { PlanCard, type PlanCardStatus } from './plan-card';
import { useTranslation } from 'react-i18next';
import { useServiceInfo } from '@/lib/service-info/get-service-info';

export interface PlansPageProps {
  /** The user's API keys (their plans count as owned); composed in by the route. */
  apiKeys?: ReadonlyArray<Pick<TApiKey, 'planName' | 'planDisplayName' | 'isActive'>>;
  /** Payments through Stripe (composed in by the route): Upgrade goes to Checkout when this answers true. */
  onUpgrade?: (plan: TPlan) => boolean;
  /** The billing card (Stripe), shown under the header. */
  billing?: ReactNode;
}

/** Days left of a running trial, from the user's plan entry. */
function trialDaysLeft(user: TUser | null, planName: string): number | null {
  const entry = user?.plans.find((p) => p.planName === planName && p.status === 'trial' && p.isActive);
  if (!entry?.expiresAt) return null;
  const ms = new Date(entry.expiresAt).getTime() - Date.now();
  return Number.isFinite(ms) ? Math.max(0, Math.ceil(ms / 86_400_000)) : null;
}

function CenteredState({ children }: { children: ReactNode }) {
  return (
    <div className="flex flex-col items-center justify-center rounded-2xl border border-dashed border-slate-300 bg-white px-6 py-16 text-center">
      {children}
    </div>
  );
}

export function PlansPage({ apiKeys, onUpgrade, billing }: PlansPageProps) {
  const { t } = useTranslation();
  const user = useUser();
  const plansQuery = usePlans();
  // The trial's length as the server grants it (Free has none to try).
  const service = useServiceInfo();
  const startTrial = useStartTrial();
  const [pendingPlan, setPendingPlan] = useState<string | null>(null);

  const ownership = useMemo(
    () => resolvePlanOwnership({ user, plans: plansQuery.data, apiKeys }),
    [user, plansQuery.data, apiKeys],
  );
  const shown = useMemo(() => visiblePlans(plansQuery.data ?? []), [plansQuery.data]);

  const statusOf = (plan: TPlan): PlanCardStatus => {
    if (!ownsPlan(ownership, plan.name)) return 'none';
    return ownership.hasMultiple && ownership.primary === plan.name ? 'primary' : 'active';
  };

  // A trial starts only once confirmed (one per e-mail address, ever); once it is spent, Upgrade asks an administrator.
  const [confirming, setConfirming] = useState<TPlan | null>(null);
  const requestFlow = usePlanRequestFlow();
  const choose = (plan: TPlan) => {
    if (onUpgrade?.(plan)) return; // paid through Stripe
    if (plan.price > 0 && trialSpent(user, plan.name)) requestFlow.ask(plan.name);
    else setConfirming(plan);
  };
  const start = (plan: TPlan) => {
    setPendingPlan(plan.name);
    startTrial.mutate(plan.name, {
      onError: (err) => isApiError(err) && err.code === 'TRIAL_ALREADY_USED' && requestFlow.ask(plan.name),
      onSettled: () => {
        setPendingPlan(null);
        setConfirming(null);
      },
    });
  };

  return (
    <div className="mx-auto max-w-6xl space-y-8">
      <title>{t('plansPage.plansDocflow')}</title>
      <header className="flex flex-col items-center gap-3 text-center">
        <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">
          {t('plansPage.chooseYourPlan')}
        </h1>
        <p className="max-w-2xl text-slate-600">{t('plansPage.scaleDocumentProcessingWithThe')}</p>
        <p className="flex items-center gap-2 text-sm text-slate-600">
          {t('plansPage.currentPlan')}
          <Badge tone="indigo" data-testid="current-plan-badge">
            {ownership.label}
          </Badge>
        </p>
      </header>
      <PlanRequestsPanel />

      {billing}

      {plansQuery.isPending ? (
        <CenteredState>
          <Loader2 className="h-8 w-8 animate-spin text-indigo-600" aria-hidden="true" />
          <p className="mt-3 text-sm text-slate-600" role="status">
            {messages.plans.loading}
          </p>
        </CenteredState>
      ) : plansQuery.isError ? (
        <CenteredState>
          <div className="grid h-12 w-12 place-items-center rounded-full bg-rose-100 text-rose-600">
            <AlertCircle className="h-6 w-6" aria-hidden="true" />
          </div>
          <div role="alert" className="mt-3">
            <p className="font-semibold text-slate-900">{messages.plans.error}</p>
            <p className="mt-1 text-sm text-slate-600">
              {isApiError(plansQuery.error)
                ? (plansQuery.error.serverMessage ?? plansQuery.error.message)
                : plansQuery.error.message}
            </p>
          </div>
          <Button
            className="mt-5"
            variant="secondary"
            onClick={() => void plansQuery.refetch()}
            isLoading={plansQuery.isFetching}
          >
            {!plansQuery.isFetching && <RefreshCw className="h-4 w-4" aria-hidden="true" />}
            {t('plansPage.retry')}
          </Button>
        </CenteredState>
      ) : shown.length === 0 ? (
        <CenteredState>
          <Inbox className="h-10 w-10 text-slate-400" aria-hidden="true" />
          <p className="mt-3 font-semibold text-slate-900">{t('plansPage.noPlansAvailable')}</p>
          <p className="mt-1 text-sm text-slate-600">{t('plansPage.noPlanIsOpenFor')}</p>
        </CenteredState>
      ) : (
        <div className="grid gap-6 pt-3 md:grid-cols-2 lg:grid-cols-3" data-testid="plans-grid">
          {shown.map((plan) => (
            <PlanCard
              key={plan.id}
              plan={plan}
              status={statusOf(plan)}
              trialDaysLeft={trialDaysLeft(user, plan.name)}
              onChoose={choose}
              isPending={pendingPlan === plan.name}
              disabled={pendingPlan !== null && pendingPlan !== plan.name}
            />
          ))}
        </div>
      )}

      <footer className="space-y-6">
        <section
          aria-labelledby="contact-sales-title"
          className="flex flex-col items-start gap-4 rounded-2xl bg-gradient-to-r from-slate-900 to-indigo-900 p-6 text-white sm:flex-row sm:items-center sm:justify-between sm:p-8"
        >
          <div className="flex gap-4">
            <div className="grid h-11 w-11 shrink-0 place-items-center rounded-xl bg-white/10">
              <Headset className="h-5 w-5" aria-hidden="true" />
            </div>
            <div>
              <h2 id="contact-sales-title" className="text-lg font-semibold">
                {t('plansPage.needSomethingBigger')}
              </h2>
              <p className="mt-1 text-sm text-indigo-100">{t('plansPage.customLimitsDedicatedInfrastructureAn')}</p>
            </div>
          </div>
          <Button variant="light" onClick={() => requestFlow.ask(null)}>
            {t('plansPage.contactSales')}
          </Button>
        </section>
        <div className="flex flex-col items-center gap-1 text-center text-sm text-slate-500">
          <p className="flex items-center gap-1.5">
            <ShieldCheck className="h-4 w-4 text-emerald-500" aria-hidden="true" />
            {service.data
              ? t('plansPage.paidPlansTrial', { days: service.data.trialDays })
              : t('plansPage.paidPlansTrialNoFigure')}
          </p>
          <p>{t('plansPage.pricesExcludeTaxesYouCan')}</p>
        </div>
      </footer>
      <TrialConfirmDialog
        plan={confirming}
        isPending={startTrial.isPending}
        onConfirm={start}
        onCancel={() => setConfirming(null)}
      />
      <PlanRequestDialog flow={requestFlow} plans={plansQuery.data ?? []} />
    </div>
  );
}
