import { DollarSign, HeartPulse, Server, Users } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { cn } from '@/utils/cn';
import type { AdminOverview } from '@/lib/usage/get-admin-overview';
import { formatMoney, formatMs, formatNumber, formatRate } from '@/utils/format';
import { useTranslation } from 'react-i18next';

/** Admins only: users, revenue, health and uptime of the whole service. */
export function SystemOverview({
  overview,
  health,
  uptimeSeconds,
  loading,
}: {
  overview?: AdminOverview;
  health?: 'healthy' | 'degraded';
  uptimeSeconds?: number;
  loading: boolean;
}) {
  const { t } = useTranslation();
  const cards = [
    {
      label: t('systemOverview.totalUsers'),
      icon: Users,
      value: overview ? formatNumber(overview.users.total) : '—',
      hint: overview
        ? `${formatNumber(overview.users.active)} active · ${formatNumber(overview.users.newToday)} new today`
        : null,
    },
    {
      label: t('systemOverview.monthlyRevenue'),
      icon: DollarSign,
      value: overview ? formatMoney(overview.revenue.monthly, overview.revenue.currency) : '—',
      hint: overview ? `${formatNumber(overview.revenue.activeSubscriptions)} paying subscriptions` : null,
    },
    {
      label: t('systemOverview.systemHealth'),
      icon: HeartPulse,
      value: health === 'healthy' ? 'Healthy' : health === 'degraded' ? 'Degraded' : '—',
      hint: overview ? `${formatRate(overview.successRate)} success · ${formatMs(overview.avgResponseTime)} avg` : null,
    },
    {
      label: t('systemOverview.uptime'),
      icon: Server,
      value: uptimeSeconds !== undefined ? `${Math.floor(uptimeSeconds / 86_400)} days` : '—',
      hint:
        uptimeSeconds !== undefined ? `${Math.floor((uptimeSeconds % 86_400) / 3600)} h since the last restart` : null,
    },
  ];
  return (
    <section
      aria-label={t('systemOverview.systemOverview')}
      className="rounded-2xl bg-gradient-to-br from-slate-900 via-slate-900 to-indigo-950 p-5 text-white shadow-sm"
    >
      <div className="flex items-center justify-between gap-2">
        <h2 className="font-semibold">{t('systemOverview.systemOverview')}</h2>
        <Badge tone="dark">{t('systemOverview.admin')}</Badge>
      </div>
      <div className="mt-4 grid gap-3 sm:grid-cols-2 xl:grid-cols-4">
        {cards.map((c) => (
          <div key={c.label} className="rounded-xl bg-white/5 p-4 ring-1 ring-inset ring-white/10">
            <div className="flex items-center gap-2 text-sm text-slate-300">
              <c.icon className="h-4 w-4 text-indigo-300" aria-hidden="true" />
              {c.label}
            </div>
            <p className={cn('mt-2 text-2xl font-bold tabular-nums', loading && 'animate-pulse text-slate-500')}>
              {c.label === t('systemOverview.systemHealth') && health ? (
                <span className="inline-flex items-center gap-2">
                  <span
                    className={cn('h-2.5 w-2.5 rounded-full', health === 'healthy' ? 'bg-emerald-400' : 'bg-amber-400')}
                    aria-hidden="true"
                  />
                  {c.value}
                </span>
              ) : (
                c.value
              )}
            </p>
            {c.hint && <p className="mt-1 text-xs text-slate-400">{c.hint}</p>}
          </div>
        ))}
      </div>
    </section>
  );
}
