import { Link } from 'react-router';
import { type TUsageAnalytics } from '@docflow/contracts';
import { DataTable } from '@/components/ui/table';
import { Badge } from '@/components/ui/badge';
import { paths } from '@/config/paths';
import { SectionCard } from '@/components/ui/section-card';
import { formatNumber, formatRate } from '@/utils/format';
import { isUnlimited, requestsOverLimit } from '../utils/plan-details';
import { UtilizationBar } from './utilization-bar';
import { MonthCallsLine } from '@/components/usage/month-calls-line';
import { useTranslation } from 'react-i18next';

/**
 * Spec-2 §2 "Plan details" (non-admins): with several plans, one row per key (name, plan, usage, utilization, total
 * usage); with one, the plan name, the monthly utilization and the requests over the monthly limit or 'Unlimited'.
 */
export function PlanDetails({ usage }: { usage: TUsageAnalytics }) {
  const { t } = useTranslation();
  const { limits } = usage;
  if (limits.hasMultiplePlans) {
    return (
      <SectionCard
        title={t('planDetails.planDetails')}
        description={t('planDetails.plansInUse', { count: limits.plans.length })}
        bodyClassName="p-0"
      >
        <MonthCallsLine calls={limits.monthCalls} testId="plan-card-calls" className="px-5 pt-3 text-slate-500" />
        <DataTable
          minWidth={520}
          columns={[
            { label: t('planDetails.key') },
            { label: t('planDetails.plan') },
            { label: t('planDetails.usage'), align: 'right' },
            { label: t('planDetails.utilization') },
            { label: t('planDetails.totalUsage'), align: 'right' },
          ]}
        >
          {limits.planBreakdown.map((row) => (
            <tr key={row.keyId}>
              <th scope="row" className="px-5 py-3 text-left font-medium text-slate-900">
                {row.keyName || t('planDetails.unnamedKey')}
              </th>
              <td className="px-5 py-3">
                <Badge tone="indigo">{row.planName}</Badge>
              </td>
              <td className="px-5 py-3 text-right tabular-nums">{formatNumber(row.usage)}</td>
              <td className="px-5 py-3">
                <div className="flex items-center gap-2">
                  <div className="w-20">
                    <UtilizationBar
                      percent={row.utilization}
                      label={t('planDetails.utilizationOf', { name: row.keyName || t('planDetails.unnamedKey') })}
                    />
                  </div>
                  <span className="tabular-nums text-slate-600">{formatRate(row.utilization)}</span>
                </div>
              </td>
              <td className="px-5 py-3 text-right tabular-nums">{formatNumber(row.totalUsage)}</td>
            </tr>
          ))}
        </DataTable>
      </SectionCard>
    );
  }
  const monthly = limits.utilizationRate.monthly;
  const unlimited = isUnlimited(limits.maxRequestsPerMonth);
  return (
    <SectionCard
      title={t('planDetails.planDetails')}
      action={
        <Link to={paths.app.plans.getHref()} className="text-sm font-medium text-indigo-600 hover:text-indigo-500">
          {t('planDetails.changePlan')}
        </Link>
      }
    >
      <dl className="space-y-4">
        <div className="flex items-center justify-between gap-2">
          <dt className="text-sm text-slate-500">{t('planDetails.plan')}</dt>
          <dd>
            <Badge tone="indigo">{limits.planDisplayName}</Badge>
          </dd>
        </div>
        <div className="space-y-2">
          <div className="flex items-center justify-between gap-2">
            <dt className="text-sm text-slate-500">{t('planDetails.monthlyUtilization')}</dt>
            <dd className="text-sm font-semibold tabular-nums text-slate-900">
              {unlimited ? '—' : formatRate(monthly)}
            </dd>
          </div>
          {!unlimited && <UtilizationBar percent={monthly} label={t('planDetails.monthlyUtilization')} />}
        </div>
        <div className="flex items-center justify-between gap-2">
          <dt className="text-sm text-slate-500">{t('planDetails.requestsThisMonth')}</dt>
          <dd className="text-sm font-medium tabular-nums text-slate-900" data-testid="plan-card-counted">
            {requestsOverLimit(limits.monthCalls.counted, limits.maxRequestsPerMonth)}
          </dd>
        </div>
        <MonthCallsLine calls={limits.monthCalls} testId="plan-card-calls" className="text-slate-500" />
      </dl>
    </SectionCard>
  );
}
