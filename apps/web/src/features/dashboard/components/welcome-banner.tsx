import { Crown } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { formatNumber } from '@/utils/format';

/** The greeting, the plan badge and, for users, this month's requests and key count. */
export function WelcomeBanner({
  firstName,
  isAdmin,
  planLabel,
  requestsThisMonth,
  apiKeyCount,
}: {
  firstName: string;
  isAdmin: boolean;
  planLabel: string;
  requestsThisMonth?: number;
  apiKeyCount?: number;
}) {
  return (
    <section
      aria-label="Welcome"
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
            <span className="inline-flex items-center gap-1.5 rounded-full bg-emerald-400/15 px-2.5 py-0.5 text-xs font-medium text-emerald-50 ring-1 ring-inset ring-emerald-300/30">
              <span className="h-1.5 w-1.5 rounded-full bg-emerald-300" aria-hidden="true" />
              All systems operational
            </span>
          </div>
          <h1 className="mt-3 text-2xl font-bold tracking-tight sm:text-3xl">
            Welcome back{firstName ? `, ${firstName}` : ''}!
          </h1>
          <p className="mt-1 text-sm text-indigo-100">
            {isAdmin ? 'Here is how the whole platform is doing.' : 'Here is what is happening with your document API.'}
          </p>
        </div>
        {!isAdmin && (
          <dl className="flex gap-8 text-sm">
            <div>
              <dt className="text-indigo-200">Requests this month</dt>
              <dd className="text-2xl font-bold tabular-nums">
                {requestsThisMonth !== undefined ? formatNumber(requestsThisMonth) : '—'}
              </dd>
            </div>
            <div>
              <dt className="text-indigo-200">API keys</dt>
              <dd className="text-2xl font-bold tabular-nums">
                {apiKeyCount !== undefined ? formatNumber(apiKeyCount) : '—'}
              </dd>
            </div>
          </dl>
        )}
      </div>
    </section>
  );
}
