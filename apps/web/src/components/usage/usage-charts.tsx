import { useId } from 'react';
import {
  Area,
  AreaChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { formatCompact, formatDay, formatNumber } from '@/utils/format';
import { useTranslation } from 'react-i18next';
import { tr } from '@/i18n/localised';

export interface DayPoint {
  date: string;
  requests: number;
  errors: number;
}

const axis = { stroke: '#94a3b8', fontSize: 12, tickLine: false, axisLine: false } as const;

function summary(data: readonly DayPoint[]): string {
  const total = data.reduce((s, d) => s + d.requests, 0);
  const errors = data.reduce((s, d) => s + d.errors, 0);
  const peak = data.reduce<DayPoint | null>((best, d) => (!best || d.requests > best.requests ? d : best), null);
  const base = tr('usageCharts.totals', {
    requests: formatNumber(total),
    errors: formatNumber(errors),
    days: data.length,
  });
  return peak && peak.requests > 0
    ? tr('usageCharts.totalsWithPeak', { base, peak: formatNumber(peak.requests), day: formatDay(peak.date) })
    : `${base}.`;
}

function EmptyOverlay({ show }: { show: boolean }) {
  const { t } = useTranslation();
  if (!show) return null;
  return (
    <div className="pointer-events-none absolute inset-0 grid place-items-center">
      <p className="rounded-full bg-white/90 px-3 py-1 text-sm text-slate-500 shadow-sm ring-1 ring-slate-200">
        {t('usageCharts.noRequestsInThisPeriod')}
      </p>
    </div>
  );
}

/** Requests per day as an area chart. */
export function UsageAreaChart({
  data,
  className = 'h-56 sm:h-72',
  label,
}: {
  data: readonly DayPoint[];
  className?: string;
  label?: string;
}) {
  const { t } = useTranslation();
  const gradientId = useId().replace(/:/g, '');
  const empty = data.every((d) => d.requests === 0);
  return (
    <figure
      className="relative"
      role="img"
      aria-label={t('usageCharts.summary', { label: label ?? t('usageCharts.requestsPerDay'), summary: summary(data) })}
    >
      <div className={className}>
        <ResponsiveContainer width="100%" height="100%">
          <AreaChart data={data as DayPoint[]} margin={{ top: 8, right: 8, bottom: 0, left: -12 }}>
            <defs>
              <linearGradient id={gradientId} x1="0" y1="0" x2="0" y2="1">
                <stop offset="0%" stopColor="#6366f1" stopOpacity={0.35} />
                <stop offset="100%" stopColor="#6366f1" stopOpacity={0.02} />
              </linearGradient>
            </defs>
            <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" vertical={false} />
            <XAxis dataKey="date" tickFormatter={formatDay} minTickGap={24} {...axis} />
            <YAxis allowDecimals={false} tickFormatter={formatCompact} width={48} {...axis} />
            <Tooltip
              labelFormatter={(d) => formatDay(String(d))}
              formatter={(v) => [formatNumber(Number(v)), 'Requests']}
              contentStyle={{ borderRadius: 12, borderColor: '#e2e8f0', fontSize: 13 }}
            />
            <Area
              type="monotone"
              dataKey="requests"
              name="Requests"
              stroke="#6366f1"
              strokeWidth={2}
              fill={`url(#${gradientId})`}
            />
          </AreaChart>
        </ResponsiveContainer>
      </div>
      <EmptyOverlay show={empty} />
    </figure>
  );
}

/** Requests against errors per day. */
export function RequestsErrorsChart({
  data,
  className = 'h-56 sm:h-72',
}: {
  data: readonly DayPoint[];
  className?: string;
}) {
  const { t } = useTranslation();
  const empty = data.every((d) => d.requests === 0 && d.errors === 0);
  return (
    <figure
      className="relative"
      role="img"
      aria-label={t('usageCharts.requestsVersusErrors', { summary: summary(data) })}
    >
      <div className={className}>
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={data as DayPoint[]} margin={{ top: 8, right: 8, bottom: 0, left: -12 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" vertical={false} />
            <XAxis dataKey="date" tickFormatter={formatDay} minTickGap={24} {...axis} />
            <YAxis allowDecimals={false} tickFormatter={formatCompact} width={48} {...axis} />
            <Tooltip
              labelFormatter={(d) => formatDay(String(d))}
              formatter={(v, name) => [formatNumber(Number(v)), String(name)]}
              contentStyle={{ borderRadius: 12, borderColor: '#e2e8f0', fontSize: 13 }}
            />
            <Legend iconType="circle" wrapperStyle={{ fontSize: 12 }} />
            <Line type="monotone" dataKey="requests" name="Requests" stroke="#6366f1" strokeWidth={2} dot={false} />
            <Line type="monotone" dataKey="errors" name="Errors" stroke="#f43f5e" strokeWidth={2} dot={false} />
          </LineChart>
        </ResponsiveContainer>
      </div>
      <EmptyOverlay show={empty} />
    </figure>
  );
}
