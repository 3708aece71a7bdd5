import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { TUsageAnalytics, TUser } from '@docflow/contracts';
import { useAuthStore } from '@/lib/auth/auth-store';
import { AnalyticsPage } from '../analytics-page';

const days = (n: number) =>
  Array.from({ length: n }, (_, i) => ({
    date: new Date(Date.UTC(2025, 4, 1 + i)).toISOString().slice(0, 10),
    requests: i,
    errors: i % 3 === 0 ? 1 : 0,
  }));

const usage = (period: TUsageAnalytics['period']): TUsageAnalytics => ({
  period,
  from: '2025-05-01',
  to: '2025-05-30',
  summary: {
    totalApiKeys: 3,
    activeApiKeys: 2,
    totalRequests: 1000,
    successRate: 97.5,
    memberSince: '2024-02-10T00:00:00Z',
    avgResponseTime: 234,
  },
  limits: {
    hasMultiplePlans: false,
    plans: ['pro'],
    planName: 'pro',
    planDisplayName: 'Pro',
    maxRequestsPerMonth: 100_000,
    currentMonthUsage: 85_000,
    monthCalls: { month: '2025-05', made: 85_010, counted: 85_000, notCounted: 10 },
    utilizationRate: { monthly: 85 },
    planBreakdown: [],
  },
  usage: {
    byDay: days(period === 'last_7_days' ? 7 : 30),
    byApiKey: [
      { keyId: 'a', keyName: 'Main', requests: 600, successRate: 99, lastUsed: null },
      { keyId: 'b', keyName: 'Batch', requests: 300, successRate: 92, lastUsed: null },
      { keyId: 'c', keyName: 'Flaky', requests: 100, successRate: 40, lastUsed: null },
    ],
    byEndpoint: {
      '/pdf/merge': { group: 'pdf', requests: 500, successRate: 99, avgResponseTime: 120 },
      '/conversion/auto-to-pdf': { group: 'conversion', requests: 300, successRate: 80, avgResponseTime: 900 },
      '/ocr/extract': { group: 'ocr', requests: 150, successRate: 30, avgResponseTime: 2000 },
      '/qrcode/url': { group: 'qrcode', requests: 50, successRate: 100, avgResponseTime: 20 },
    },
  },
  recommendations: [
    { title: 'Low priority', message: 'l', priority: 'low' },
    { title: 'Upgrade soon', message: 'You used 85% of your plan', priority: 'high' },
  ],
});

const user = (role: TUser['role']): TUser => ({
  id: 'u',
  email: 'a@b.c',
  name: 'Ada',
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
  plans: [],
  activeplan: null,
});

const json = (body: unknown) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });

function serve() {
  const fn = vi.fn(async (input: RequestInfo | URL) => {
    const url = new URL(String(input), 'http://localhost');
    if (url.pathname === '/api/v1/my/usage')
      return json({
        success: true,
        data: { usage: usage(url.searchParams.get('period') as TUsageAnalytics['period']) },
      });
    if (url.pathname === '/api/v1/admin/stats/overview')
      return json({
        success: true,
        data: {
          overview: {
            users: { total: 42, active: 40, newToday: 2 },
            apiKeys: { total: 50, active: 45, newToday: 1 },
            requests: { today: 10, thisMonth: 100, total: 1000 },
            monthCalls: { month: '2026-11', made: 100, counted: 90, notCounted: 10 },
            successRate: 99,
            errorRate: 1,
            avgResponseTime: 200,
            revenue: { monthly: 1234, currency: 'USD', activeSubscriptions: 7 },
            series: [],
          },
        },
      });
    if (url.pathname === '/health') return json({ status: 'ok', uptime: 3 * 86_400 + 7200 });
    if (url.pathname === '/ready') return json({ status: 'ready', checks: {} });
    throw new Error(`unexpected ${url.pathname}`);
  });
  vi.stubGlobal('fetch', fn);
  return fn;
}

function renderPage(unread?: number) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <AnalyticsPage unreadNotifications={unread} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('AnalyticsPage', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('shows the figures, categories, badges and labels of the default 30-day period', async () => {
    useAuthStore.setState({ user: user('user'), token: 't', isAuthenticated: true });
    const fetchMock = serve();
    renderPage(3);
    await screen.findByText('1,000');
    expect(String(fetchMock.mock.calls[0]![0])).toContain('period=last_30_days');
    expect(screen.getByRole('button', { name: '30 days' })).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getAllByTestId('stat-card')).toHaveLength(4);
    expect(screen.queryByRole('region', { name: 'System Overview' })).not.toBeInTheDocument();

    for (const label of ['PDF Operations', 'Document Conversion', 'QR Code', 'OCR'])
      expect(screen.getByRole('heading', { name: label })).toBeInTheDocument();
    expect(within(screen.getByTestId('category-pdf')).getByText('/pdf/merge')).toBeInTheDocument();

    const top = within(screen.getByRole('region', { name: 'Top endpoints' }));
    const badges = top.getAllByText(/%$/).map((b) => b.getAttribute('data-badge'));
    expect(badges).toEqual(['success', 'warning', 'danger', 'success']);

    const rows = screen.getAllByTestId('key-activity-row');
    expect(rows.map((r) => within(r).getByText(/Excellent|Good|Needs attention/).textContent)).toEqual([
      'Excellent',
      'Good',
      'Needs attention',
    ]);
    expect(within(rows[0]!).getByText('60%')).toBeInTheDocument();

    const recs = within(screen.getByTestId('recommendations')).getAllByRole('listitem');
    expect(recs[0]).toHaveTextContent('Upgrade soon');

    const insights = within(screen.getByRole('region', { name: 'System insights' }));
    expect(insights.getByText('85% of Pro')).toBeInTheDocument();
    expect(insights.getByText('3')).toBeInTheDocument();
    expect(insights.getByText('February 10, 2024')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: '7 days' }));
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([u]) => String(u).includes('period=last_7_days'))).toBe(true),
    );
    expect(screen.getByRole('button', { name: '7 days' })).toHaveAttribute('aria-pressed', 'true');
  });

  it('shows admins the real system overview', async () => {
    useAuthStore.setState({ user: user('admin'), token: 't', isAuthenticated: true });
    serve();
    renderPage();
    const overview = within(await screen.findByRole('region', { name: 'System Overview' }));
    await waitFor(() => expect(overview.getByText('42')).toBeInTheDocument());
    expect(overview.getByText(/1\s234\s\$US/)).toBeInTheDocument();
    await waitFor(() => expect(overview.getByText('Healthy')).toBeInTheDocument());
    expect(overview.getByText('3 days')).toBeInTheDocument();
  });
});
