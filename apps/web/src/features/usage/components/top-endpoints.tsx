import { useMemo } from 'react';
import type { TUsageAnalytics } from '@docflow/contracts';
import { Badge } from '@/components/ui/badge';
import { toEndpointList, topEndpoints } from '../utils/endpoint-categories';
import { formatMs, formatNumber, formatRate } from '@/utils/format';
import { endpointBadgeTone, endpointSuccessBadge, rateOrDefault } from '../utils/success-rate';
import { SectionCard } from '@/components/ui/section-card';
import { useTranslation } from 'react-i18next';

/** The 8 busiest endpoints with their response time and success rate. */
export function TopEndpoints({ usage }: { usage: TUsageAnalytics }) {
  const { t } = useTranslation();
  const rows = useMemo(() => topEndpoints(toEndpointList(usage.usage.byEndpoint), 8), [usage]);
  return (
    <SectionCard
      title={t('topEndpoints.topEndpoints')}
      description={t('topEndpoints.the8BusiestEndpoints')}
      className="lg:col-span-2"
      bodyClassName="p-0"
    >
      {rows.length === 0 ? (
        <p className="p-5 text-sm text-slate-500">{t('topEndpoints.noEndpointHasBeenCalled')}</p>
      ) : (
        <ol className="divide-y divide-slate-100">
          {rows.map((e, i) => {
            const rate = rateOrDefault(e.successRate);
            const badge = endpointSuccessBadge(rate);
            return (
              <li key={e.path} className="flex items-center gap-3 px-5 py-3">
                <span className="w-5 text-right text-xs font-medium text-slate-400">{i + 1}</span>
                <code className="min-w-0 flex-1 truncate font-mono text-sm text-slate-800">{e.path}</code>
                {e.avgResponseTime !== undefined && (
                  <span className="hidden text-xs text-slate-500 sm:inline">{formatMs(e.avgResponseTime)}</span>
                )}
                <span className="w-16 text-right text-sm font-medium tabular-nums text-slate-900">
                  {formatNumber(e.requests)}
                </span>
                <Badge tone={endpointBadgeTone[badge]} data-badge={badge} className="w-20 justify-center">
                  {formatRate(rate)}
                </Badge>
              </li>
            );
          })}
        </ol>
      )}
    </SectionCard>
  );
}
