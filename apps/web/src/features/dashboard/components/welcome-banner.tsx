import { Crown } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import type { TMonthCalls } from '@docflow/contracts';
import { formatNumber } from '@/utils/format';
import { MonthCallsLine } from '@/components/usage/month-calls-line';
import { useTranslation } from 'react-i18next';

/** The greeting, the plan badge and, for users, this month's calls (made, counted) and key count. */
export function WelcomeBanner({
  firstName,
  isAdmin,
  planLabel,
  monthCalls,
  apiKeyCount,
}: {
  firstName: string;
  isAdmin: boolean;
  planLabel: string;
  monthCalls?: TMonthCalls;
  apiKeyCount?: number;
}) {
  const { t } = useTranslation();
  return (
    <section
      aria-label={t('welcomeBanner.welcome')}
      className="relative overflow-hidden rounded-2xl bg-gradient-to-br from-indigo-600 via-indigo-600 to-violet-600 p-6 text-white shadow-sm sm:p-8"
    >
      <div
        className="pointer-events-none absolute -right-16 -top-20 h-64 w-64 rounded-full bg-white/10 blur-2xl"
        aria-hidden="true"
      />
      <div className="relative flex flex-col gap-5 md:flex-row md:items-end md:justify-between">
        <div>
          <div className="flex flex-wrap items-center gap-2">
            <Badge tone="dark" data-testid="dashboard-plan-badge">
              <Crown className="h-3 w-3" aria-hidden="true" />
              {planLabel}
            </Badge>
          </div>
          <h1 className="mt-3 text-2xl font-bold tracking-tight sm:text-3xl">
            {t('welcomeBanner.welcomeBack')}
            {firstName ? `, ${firstName}` : ''}!
          </h1>
          <p className="mt-1 text-sm text-indigo-100">
            {isAdmin ? t('welcomeBanner.hereIsHowTheWhole') : t('welcomeBanner.hereIsWhatIsHappening')}
          </p>
        </div>
        {!isAdmin && (
          <div className="space-y-2">
            <dl className="flex gap-8 text-sm">
              <div>
                <dt className="text-indigo-200">{t('welcomeBanner.requestsThisMonth')}</dt>
                <dd className="text-2xl font-bold tabular-nums" data-testid="banner-calls-made">
                  {monthCalls ? formatNumber(monthCalls.made) : '—'}
                </dd>
              </div>
              <div>
                <dt className="text-indigo-200">{t('welcomeBanner.countedThisMonth')}</dt>
                <dd className="text-2xl font-bold tabular-nums" data-testid="banner-calls-counted">
                  {monthCalls ? formatNumber(monthCalls.counted) : '—'}
                </dd>
              </div>
              <div>
                <dt className="text-indigo-200">{t('welcomeBanner.apiKeys')}</dt>
                <dd className="text-2xl font-bold tabular-nums">
                  {apiKeyCount !== undefined ? formatNumber(apiKeyCount) : '—'}
                </dd>
              </div>
            </dl>
            {monthCalls && (
              <MonthCallsLine calls={monthCalls} testId="banner-month-calls" className="text-indigo-100" />
            )}
          </div>
        )}
      </div>
    </section>
  );
}
