import { useMemo } from 'react';
import { KeyRound } from 'lucide-react';
import type { TUsageAnalytics } from '@docflow/contracts';
import { formatNumber } from '@/utils/format';
import { SectionCard } from '@/components/ui/section-card';
import { useTranslation } from 'react-i18next';

/** The 5 most used keys, with a bar relative to the busiest. */
export function TopKeys({ usage }: { usage: TUsageAnalytics }) {
  const { t } = useTranslation();
  const rows = useMemo(() => [...usage.usage.byApiKey].sort((a, b) => b.requests - a.requests).slice(0, 5), [usage]);
  const max = rows[0]?.requests ?? 0;
  return (
    <SectionCard title={t('topKeys.topApiKeys')} description={t('topKeys.the5MostUsedKeys')}>
      {rows.length === 0 ? (
        <p className="text-sm text-slate-500">{t('topKeys.noKeyHasBeenUsed')}</p>
      ) : (
        <ol className="space-y-4">
          {rows.map((k) => (
            <li key={k.keyId}>
              <div className="flex items-center justify-between gap-2 text-sm">
                <span className="flex min-w-0 items-center gap-2">
                  <KeyRound className="h-4 w-4 shrink-0 text-slate-400" aria-hidden="true" />
                  <span className="truncate font-medium text-slate-800">{k.keyName || t('topKeys.unnamedKey')}</span>
                </span>
                <span className="shrink-0 tabular-nums text-slate-900">{formatNumber(k.requests)}</span>
              </div>
              <div className="mt-1.5 h-1.5 overflow-hidden rounded-full bg-slate-100" aria-hidden="true">
                <div
                  className="h-full rounded-full bg-indigo-500"
                  style={{ width: `${max ? (k.requests / max) * 100 : 0}%` }}
                />
              </div>
            </li>
          ))}
        </ol>
      )}
    </SectionCard>
  );
}
