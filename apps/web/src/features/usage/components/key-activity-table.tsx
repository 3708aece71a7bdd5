import { useMemo } from 'react';
import { KeyRound } from 'lucide-react';
import type { TUsageAnalytics } from '@docflow/contracts';
import { DataTable } from '@/components/ui/table';
import { Badge } from '@/components/ui/badge';
import { formatNumber, formatRate, formatRelative } from '@/utils/format';
import { rateOrDefault, successLabelTone, successRateKey, successRateLabel } from '../utils/success-rate';
import { SectionCard } from '@/components/ui/section-card';
import { useTranslation } from 'react-i18next';

/** Every key's requests, success rate, share of the total and last use. */
export function KeyActivityTable({ usage }: { usage: TUsageAnalytics }) {
  const { t } = useTranslation();
  const total = usage.summary.totalRequests;
  const rows = useMemo(() => [...usage.usage.byApiKey].sort((a, b) => b.requests - a.requests), [usage]);
  return (
    <SectionCard
      title={t('keyActivityTable.apiKeyActivity')}
      description={t('keyActivityTable.requestsPerKeyOverThe')}
      bodyClassName="p-0"
    >
      {rows.length === 0 ? (
        <p className="p-5 text-sm text-slate-500">{t('keyActivityTable.noKeyActivityInThis')}</p>
      ) : (
        <DataTable
          minWidth={640}
          columns={[
            { label: t('keyActivityTable.key') },
            { label: t('keyActivityTable.requests'), align: 'right' },
            { label: t('keyActivityTable.successRate') },
            { label: '% of total', align: 'right' },
            { label: t('keyActivityTable.lastUsed') },
          ]}
        >
          {rows.map((k) => {
            const rate = rateOrDefault(k.successRate);
            const label = successRateLabel(rate);
            return (
              <tr key={k.keyId} data-testid="key-activity-row">
                <th scope="row" className="px-5 py-3 text-left font-medium text-slate-900">
                  <span className="flex items-center gap-2">
                    <KeyRound className="h-4 w-4 text-slate-400" aria-hidden="true" />
                    {k.keyName || t('keyActivityTable.unnamedKey')}
                  </span>
                </th>
                <td className="px-5 py-3 text-right tabular-nums text-slate-900">{formatNumber(k.requests)}</td>
                <td className="px-5 py-3">
                  <span className="flex items-center gap-2">
                    <span className="tabular-nums text-slate-900">{formatRate(rate)}</span>
                    <Badge tone={successLabelTone[label]}>{t(successRateKey[label])}</Badge>
                  </span>
                </td>
                <td className="px-5 py-3 text-right tabular-nums text-slate-600">
                  {formatRate(total > 0 ? (k.requests / total) * 100 : 0)}
                </td>
                <td className="px-5 py-3 text-slate-600">{formatRelative(k.lastUsed)}</td>
              </tr>
            );
          })}
        </DataTable>
      )}
    </SectionCard>
  );
}
