import { useMemo } from 'react';
import { Activity, FileText, QrCode, RefreshCw, ScanText } from 'lucide-react';
import type { TUsageAnalytics } from '@docflow/contracts';
import { cn } from '@/utils/cn';
import { groupByCategory, toEndpointList, type UsageCategoryId } from '../utils/endpoint-categories';
import { formatNumber, formatRate } from '@/utils/format';
import { SectionCard } from '@/components/ui/section-card';
import { useTranslation } from 'react-i18next';

const categoryIcon: Record<UsageCategoryId, typeof FileText> = {
  pdf: FileText,
  conversion: RefreshCw,
  qrcode: QrCode,
  ocr: ScanText,
  other: Activity,
};
const categoryColor: Record<UsageCategoryId, string> = {
  pdf: 'bg-indigo-500',
  conversion: 'bg-sky-500',
  qrcode: 'bg-violet-500',
  ocr: 'bg-amber-500',
  other: 'bg-slate-400',
};

/** Requests per endpoint group, each with its endpoints; calls outside the four groups on one line. */
export function CategoryUsage({ usage }: { usage: TUsageAnalytics }) {
  const { t } = useTranslation();
  const rows = useMemo(() => groupByCategory(toEndpointList(usage.usage.byEndpoint)), [usage]);
  const main = rows.filter((r) => r.id !== 'other');
  const other = rows.find((r) => r.id === 'other');
  return (
    <SectionCard
      title={t('categoryUsage.usageByCategory')}
      description={t('categoryUsage.requestsPerEndpointGroupOver')}
    >
      <div className="grid grid-cols-2 gap-3 sm:gap-4 xl:grid-cols-4">
        {main.map((r) => {
          const Icon = categoryIcon[r.id];
          return (
            <div
              key={r.id}
              className="min-w-0 rounded-xl border border-slate-100 p-3 sm:p-4"
              data-testid={`category-${r.id}`}
            >
              <div className="flex items-center gap-2">
                <span
                  className={cn('grid h-8 w-8 shrink-0 place-items-center rounded-lg text-white', categoryColor[r.id])}
                >
                  <Icon className="h-4 w-4" aria-hidden="true" />
                </span>
                <h3 className="text-sm font-semibold leading-tight text-slate-900">{t(`usageCategories.${r.id}`)}</h3>
              </div>
              <p className="mt-3 text-2xl font-bold tabular-nums text-slate-900">{formatNumber(r.requests)}</p>
              <div className="mt-2 h-1.5 overflow-hidden rounded-full bg-slate-100" aria-hidden="true">
                <div
                  className={cn('h-full rounded-full', categoryColor[r.id])}
                  style={{ width: `${Math.min(100, r.share)}%` }}
                />
              </div>
              <p className="mt-1 text-xs text-slate-500">
                {formatRate(r.share)} {t('categoryUsage.ofRequests')}
              </p>
              {r.endpoints.length > 0 && (
                <ul className="mt-3 space-y-1 border-t border-slate-100 pt-3">
                  {r.endpoints.map((e) => (
                    <li key={e.path} className="flex items-center justify-between gap-2 text-xs">
                      <code className="truncate font-mono text-slate-600">{e.path}</code>
                      <span className="tabular-nums text-slate-900">{formatNumber(e.requests)}</span>
                    </li>
                  ))}
                </ul>
              )}
            </div>
          );
        })}
      </div>
      {other && (
        <p
          className="mt-4 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-slate-500"
          data-testid="category-other"
        >
          <Activity className="h-3.5 w-3.5" aria-hidden="true" />
          <span>
            {t('categoryUsage.otherCalls')}{' '}
            <span className="font-medium tabular-nums text-slate-700">{formatNumber(other.requests)}</span> (
            {formatRate(other.share)})
          </span>
          {other.endpoints.map((e) => (
            <code key={e.path} className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-slate-600">
              {e.path} · {formatNumber(e.requests)}
            </code>
          ))}
        </p>
      )}
    </SectionCard>
  );
}
