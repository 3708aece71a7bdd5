import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { TUsageAnalytics, TUser } from '@docflow/contracts';
import { useAuthStore } from '@/lib/auth/auth-store';
import { DashboardPage } from '../dashboard-page';
import { PlanDetails } from '../plan-details';

const series = Array.from({ length: 30 }, (_, i) => ({
  date: `2025-05-${String(i + 1).padStart(2, '0')}`,
  requests: i,
  errors: 0,
}));

const limits = (over: Partial<TUsageAnalytics['limits']> = {}): TUsageAnalytics['limits'] => ({
  hasMultiplePlans: false,
  plans: ['pro'],
  planName: 'pro',
  planDisplayName: 'Pro',
  maxRequestsPerMonth: 100_000,
  currentMonthUsage: 12_345,
  monthCalls: { month: '2025-05', made: 12_400, counted: 12_345, notCounted: 55 },
  utilizationRate: { monthly: 12.3 },
  planBreakdown: [],
  ...over,
});

const usage = (l: TUsageAnalytics['limits']): TUsageAnalytics => ({
  period: 'last_30_days',
  from: '',
  to: '',
  summary: {
    totalApiKeys: 2,
    activeApiKeys: 2,
    totalRequests: 10,
    successRate: 100,
    memberSince: '',
    avgResponseTime: 10,
  },
  limits: l,
  usage: { byDay: series, byApiKey: [], byEndpoint: {} },
  recommendations: [],
});

const user = (role: TUser['role']): TUser => ({
  id: 'u',
  email: 'a@b.c',
  name: 'Ada Lovelace',
  company: null,
  role,
  isActive: true,
  emailVerified: true,
  emailVerifiedAt: null,
  registrationSource: 'web',
  country: null,
  timezone: null,
  language: null,
  createdAt: '',
  lastLoginAt: null,
  plan: 'pro',
  plans: [{ planName: 'pro', planDisplayName: 'Pro', isActive: true, status: 'trial' }],
  activeplan: null,
});

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

function serve() {
  const fn = vi.fn(async (input: RequestInfo | URL) => {
    const { pathname } = new URL(String(input), 'http://localhost');
    switch (pathname) {
      case '/api/v1/my/dashboard':
        return json({
          success: true,
          data: {
            dashboard: {
              requestsToday: 7,
              requestsThisMonth: 12_400,
              monthCalls: { month: '2025-05', made: 12_400, counted: 12_345, notCounted: 55 },
              totalApiKeys: 2,
              activeApiKeys: 1,
              successRate: 98,
              avgResponseTime: 250,
              planName: 'pro',
              planDisplayName: 'Pro',
              maxRequestsPerMonth: 100_000,
              utilization: 12.3,
              series,
              recommendations: [
                { title: 'Low one', message: '', priority: 'low' },
                { title: 'Medium one', message: '', priority: 'medium' },
                { title: 'High one', message: '', priority: 'high' },
              ],
            },
          },
        });
      case '/api/v1/my/usage':
        return json({ success: true, data: { usage: usage(limits()) } });
      case '/api/v1/my/api-keys':
        return json({
          success: true,
          data: { apiKeys: [], pagination: { page: 1, limit: 100, total: 0, totalPages: 0 } },
        });
      case '/api/v1/plans':
        return json({ success: true, data: { plans: [] } });
      case '/api/v1/admin/stats/overview':
        return json({
          success: true,
          data: {
            overview: {
              users: { total: 321, active: 300, newToday: 4 },
              apiKeys: { total: 88, active: 80, newToday: 3 },
              requests: { today: 999, thisMonth: 5000, total: 9000 },
              monthCalls: { month: '2026-11', made: 5000, counted: 4200, notCounted: 800 },
              successRate: 99,
              errorRate: 1,
              avgResponseTime: 180,
              revenue: { monthly: 100, currency: 'USD', activeSubscriptions: 2 },
              series,
            },
          },
        });
      default:
        throw new Error(`unexpected ${pathname}`);
    }
  });
  vi.stubGlobal('fetch', fn);
  return fn;
}

function renderWithClient(ui: React.ReactElement) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>{ui}</MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('DashboardPage', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('welcomes a user with the plan badge, counts, stats, quick actions and two recommendations', async () => {
    useAuthStore.setState({ user: user('user'), token: 't', isAuthenticated: true });
    const fetchMock = serve();
    renderWithClient(<DashboardPage />);
    const banner = within(screen.getByRole('region', { name: 'Welcome' }));
    expect(banner.getByRole('heading', { name: 'Welcome back, Ada!' })).toBeInTheDocument();
    // No status claim the server did not make (the maintenance banner tells the real one).
    expect(banner.queryByText('All systems operational')).toBeNull();
    expect(banner.getByTestId('dashboard-plan-badge')).toHaveTextContent('Pro');
    // This month's calls, each figure under its own label: made, counted against the quota, not counted.
    await waitFor(() => expect(banner.getByTestId('banner-calls-made')).toHaveTextContent('12,400'));
    expect(banner.getByText('Calls made this month')).toBeInTheDocument();
    expect(banner.getByTestId('banner-calls-counted')).toHaveTextContent('12,345');
    expect(banner.getByText('Counted against the quota')).toBeInTheDocument();
    expect(banner.getByTestId('banner-month-calls-not-counted')).toHaveTextContent('55');
    expect(screen.getAllByTestId('stat-card')).toHaveLength(4);

    const recs = within(screen.getByTestId('recommendations')).getAllByRole('listitem');
    expect(recs.map((r) => r.querySelector('p')?.textContent)).toEqual(['High one', 'Medium one']);
    expect(screen.getByRole('link', { name: /View all/ })).toHaveAttribute('href', '/analytics');

    expect(screen.getByRole('link', { name: /Manage API Keys/ })).toHaveAttribute('href', '/keys');
    expect(screen.getByRole('link', { name: /View Analytics/ })).toHaveAttribute('href', '/analytics');
    const docs = screen.getByRole('link', { name: /API Documentation/ });
    expect(docs).toHaveAttribute('href', '/api-docs');
    expect(docs).toHaveAttribute('target', '_blank');

    expect(await screen.findByRole('region', { name: 'Plan details' })).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([u]) => String(u).includes('/admin/'))).toBe(false);
  });

  it('shows admins the global figures and no plan details', async () => {
    useAuthStore.setState({ user: user('owner'), token: 't', isAuthenticated: true });
    serve();
    renderWithClient(<DashboardPage />);
    expect(await screen.findByText('321')).toBeInTheDocument();
    expect(screen.getByText('999')).toBeInTheDocument();
    // Every user's calls of the month, in the words of each user's own pages.
    const calls = screen.getByTestId('admin-month-calls');
    expect(calls).toHaveTextContent('5,000 made · 4,200 counted against the quota · 800 not counted');
    expect(screen.getByTestId('admin-month-calls-not-counted')).toHaveTextContent('800');
    expect(screen.queryByRole('region', { name: 'Plan details' })).not.toBeInTheDocument();
    expect(screen.queryByText('Calls made this month')).not.toBeInTheDocument();
  });
});

describe('PlanDetails', () => {
  afterEach(cleanup);

  it('shows one plan with its utilization and requests over the limit', () => {
    renderWithClient(<PlanDetails usage={usage(limits())} />);
    expect(screen.getByText('Pro')).toBeInTheDocument();
    expect(screen.getByText('12.3%')).toBeInTheDocument();
    expect(screen.getByText('Counted against the quota this month')).toBeInTheDocument();
    expect(screen.getByTestId('plan-card-counted')).toHaveTextContent('12,345 / 100,000');
    expect(screen.getByTestId('plan-card-calls-made')).toHaveTextContent('12,400');
    expect(screen.getByTestId('plan-card-calls-not-counted')).toHaveTextContent('55');
  });

  it("says 'Unlimited' when the plan has no monthly cap", () => {
    renderWithClient(<PlanDetails usage={usage(limits({ maxRequestsPerMonth: 0 }))} />);
    expect(screen.getByText('12,345 / Unlimited')).toBeInTheDocument();
  });

  it('lists each key with several plans', () => {
    renderWithClient(
      <PlanDetails
        usage={usage(
          limits({
            hasMultiplePlans: true,
            plans: ['free', 'pro'],
            planBreakdown: [
              { keyId: '1', keyName: 'Web', planName: 'pro', usage: 500, utilization: 0.5, totalUsage: 800 },
              { keyId: '2', keyName: 'Cron', planName: 'free', usage: 900, utilization: 90, totalUsage: 950 },
            ],
          }),
        )}
      />,
    );
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    expect(within(rows[1]!).getByRole('rowheader')).toHaveTextContent('Cron');
    expect(within(rows[1]!).getByText('90%')).toBeInTheDocument();
    expect(within(rows[1]!).getByText('950')).toBeInTheDocument();
  });
});
