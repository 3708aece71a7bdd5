import { useTranslation } from 'react-i18next';
import { Inbox } from 'lucide-react';
import type { TPlanRequest, TPlanRequestStatus } from '@docflow/contracts';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { formatDate } from '@/utils/format';
import { useCancelPlanRequest, usePlanRequests } from '../api/plan-requests';

const tone: Record<TPlanRequestStatus, 'amber' | 'green' | 'rose' | 'slate'> = {
  pending: 'amber',
  granted: 'green',
  declined: 'rose',
  cancelled: 'slate',
};

function RequestLine({ r }: { r: TPlanRequest }) {
  const { t } = useTranslation();
  const cancel = useCancelPlanRequest();
  return (
    <li
      className="flex flex-wrap items-start justify-between gap-3 py-3"
      data-testid="plan-request"
      data-status={r.status}
    >
      <div className="min-w-0">
        <p className="text-sm font-medium text-slate-900">
          {r.planDisplayName} · {t(`planRequests.periods.${r.billingPeriod}`)}
          <span className="ml-2 text-xs font-normal text-slate-500">{formatDate(r.createdAt)}</span>
        </p>
        {r.status === 'granted' && (
          <p className="mt-1 text-sm text-emerald-700">
            {t('planRequests.grantedUntil', {
              plan: r.grantedPlanDisplayName ?? r.planDisplayName,
              until: r.grantedUntil ? formatDate(r.grantedUntil) : '—',
            })}
          </p>
        )}
        {r.decisionNote && <p className="mt-1 text-sm text-slate-600">{r.decisionNote}</p>}
      </div>
      <div className="flex items-center gap-2">
        <Badge tone={tone[r.status]}>{t(`planRequests.status.${r.status}`)}</Badge>
        {r.status === 'pending' && (
          <Button size="sm" variant="secondary" isLoading={cancel.isPending} onClick={() => cancel.mutate(r.id)}>
            {t('planRequests.withdraw')}
          </Button>
        )}
      </div>
    </li>
  );
}

/** The customer's plan requests and what the administrators answered; nothing when there are none. */
export function PlanRequestsPanel() {
  const { t } = useTranslation();
  const requests = usePlanRequests();
  if (!requests.data?.length) return null;
  return (
    <section
      aria-labelledby="plan-requests-title"
      className="rounded-2xl border border-slate-200 bg-white p-6 shadow-sm"
      data-testid="plan-requests"
    >
      <h2 id="plan-requests-title" className="flex items-center gap-2 text-base font-semibold text-slate-900">
        <Inbox className="h-4 w-4 text-slate-400" aria-hidden="true" />
        {t('planRequests.yourRequests')}
      </h2>
      <ul className="mt-2 divide-y divide-slate-100">
        {requests.data.map((r) => (
          <RequestLine key={r.id} r={r} />
        ))}
      </ul>
    </section>
  );
}
