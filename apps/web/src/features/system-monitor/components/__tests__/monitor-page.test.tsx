import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { THealthReport, TMonitorReport, TServiceHealth } from '@docflow/contracts';
import { useAuthStore } from '@/lib/auth/auth-store';
import { makeUser } from '@/testing/fixtures';
import { apiError, json, mockFetch } from '@/testing/mock-fetch';
import { MonitorPage } from '../monitor-page';
import { MaintenanceBanner } from '../maintenance-banner';

vi.mock('@/lib/toast', () => import('@/testing/mock-toast'));

const svc = (status: TServiceHealth['status'], over: Partial<TServiceHealth> = {}): TServiceHealth => ({
  status,
  response_time_ms: 3,
  critical: false,
  error: null,
  checked_at: '2026-11-25T00:00:00Z',
  ...over,
});
const health = (over: Partial<THealthReport> = {}): THealthReport => ({
  overall_status: 'degraded',
  uptime: { seconds: 3725, started_at: '2026-11-25T00:00:00Z' },
  response_time_ms: 12,
  services: {
    database: svc('healthy', { critical: true }),
    libreoffice: svc('degraded', {
      error: '1 LibreOffice instance gone, replaced on the next conversion and more text after it',
    }),
    qpdf: svc('healthy'),
  },
  summary: { healthy: 2, degraded: 1, down: 0, avg_response_time_ms: 3 },
  timestamp: '2026-11-25T00:00:00Z',
  ...over,
});
const system = {
  memory: {
    heap_used_mb: 50,
    heap_total_mb: 80,
    rss_mb: 200,
    external_mb: 5,
    system_total_mb: 1000,
    system_free_mb: 0,
    usage_percent: 130,
  },
  cpu: { load_1m: 0.5, cores: 2, usage_percent: 12 },
  event_loop: { delay_p50_ms: 10, delay_p99_ms: 20, utilization: 0.1 },
  disk: { path: '/data', total_mb: 1000, free_mb: 500, usage_percent: 50 },
  process: {
    pid: 42,
    node_version: 'v24',
    platform: 'linux',
    arch: 'x64',
    uptime_seconds: 3725,
    active_handles: 3,
    active_requests: 1,
  },
  processing: { running: 0, queued: 0, capacity: 2 },
  http: {
    requests: 10,
    errors_5xx: 0,
    error_rate_percent: 0,
    avg_response_time_ms: 20,
    p95_response_time_ms: 40,
    window_seconds: 300,
  },
  environment: { node_env: 'test', port: 3000, version: '0.1.0' },
};
const monitor = (): TMonitorReport => ({
  ...health(),
  system,
  business: {
    users: { total: 5, active: 4, new_today: 1 },
    api_keys: { total: 3, active: 3, new_today: 0 },
    requests: { today: 7, this_month: 70, total: 700, success_rate: 99, error_rate: 1, avg_response_time_ms: 30 },
    plans: { pricing: { total_value: 128, currency: 'USD' } },
    revenue: { monthly: 29, currency: 'USD', active_subscriptions: 1 },
  },
  alerts: {
    alerts: [
      {
        id: 'service:libreoffice',
        level: 'warning',
        type: 'service',
        message: 'libreoffice : dégradé',
        value: 3,
        threshold: null,
        since: '2026-11-25T00:00:00Z',
      },
      {
        id: 'memory',
        level: 'critical',
        type: 'memory',
        message: 'Mémoire système utilisée à 130 %',
        value: 130,
        threshold: 90,
        since: '2026-11-25T00:00:00Z',
      },
    ],
    alert_count: { critical: 1, error: 0, warning: 1, info: 0, total: 2 },
    thresholds: {
      memory_usage_percent: 90,
      response_time_ms: 1000,
      disk_usage_percent: 90,
      error_rate_percent: 5,
      queue_length: 20,
    },
  },
  maintenance: { enabled: false, message: null, since: null, by: null, retryAfterSeconds: 600 },
});
/** The page has its first answers (the status badge reads 'loading' until then). */
const loaded = () =>
  vi.waitFor(() => expect(screen.getByTestId('monitor-status')).toHaveTextContent(/healthy|degraded|error/));
const ok = (data: unknown) => () => json(200, { success: true, data });

function renderPage(role: 'user' | 'admin' = 'admin', ui = <MonitorPage />) {
  useAuthStore.setState({ user: makeUser({ role }), isAuthenticated: true, token: 't' });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>{ui}</MemoryRouter>
    </QueryClientProvider>,
  );
}

const routes = () => ({
  'GET /api/v1/admin/system/monitor': ok(monitor()),
  'GET /api/v1/admin/system/health': ok(health()),
  'GET /api/v1/admin/system/realtime': ok({ timestamp: 'now', ...system }),
});

describe('MonitorPage', () => {
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
    vi.unstubAllGlobals();
    vi.clearAllMocks();
  });

  it('plain users see Access Restricted with their role, and nothing is fetched', () => {
    const { calls } = mockFetch({});
    renderPage('user');
    expect(screen.getByTestId('monitor-restricted')).toHaveTextContent('Access Restricted');
    expect(screen.getByTestId('monitor-restricted')).toHaveTextContent('user');
    expect(calls).toHaveLength(0);
  });

  it('shows the status, uptime, the first service error cut at 50 characters, and alerts sorted by priority', async () => {
    mockFetch(routes());
    renderPage();
    await loaded();
    expect(screen.getByTestId('monitor-status')).toHaveTextContent('degraded');
    expect(screen.getByTestId('monitor-uptime')).toHaveTextContent('1 h 2 min');
    const banner = await screen.findByTestId('monitor-error');
    expect(banner).toHaveTextContent('System Error Detected');
    // Service error text over 50 characters is cut with an ellipsis.
    expect(banner).toHaveTextContent(/libreoffice: 1 LibreOffice instance gone, replaced on the next …/);
    expect(banner).not.toHaveTextContent('more text after it');
    expect(await screen.findByTestId('alerts-count')).toHaveTextContent('2');
    await userEvent.click(screen.getByRole('tab', { name: /Alerts/ }));
    expect(screen.getAllByTestId('alert-item').map((a) => a.dataset.level)).toEqual(['critical', 'warning']);
  });

  it('filters services by name, shows Down for error, and caps the memory bar at 100 %', async () => {
    mockFetch({
      ...routes(),
      'GET /api/v1/admin/system/health': ok(
        health({ services: { redis: svc('error', { error: 'refused' }), qpdf: svc('healthy') } }),
      ),
    });
    renderPage();
    await loaded();
    await userEvent.click(screen.getByRole('tab', { name: 'Services' }));
    expect(await screen.findByTestId('service-card-redis')).toHaveTextContent('Down');
    await userEvent.type(screen.getByLabelText('Search services'), 'qp');
    expect(screen.queryByTestId('service-card-redis')).toBeNull();
    expect(screen.getByTestId('service-card-qpdf')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('tab', { name: 'Metrics' }));
    expect(screen.getByTestId('memory-bar').style.width).toBe('100%');
  });

  it('shows the error banner when the monitor cannot be reached, and Retry Connection asks again', async () => {
    const { callsTo } = mockFetch({
      ...routes(),
      'GET /api/v1/admin/system/monitor': [() => apiError(503, 'SERVICE_UNAVAILABLE', 'Not ready'), ok(monitor())],
      'GET /api/v1/admin/system/health': [() => apiError(503, 'SERVICE_UNAVAILABLE', 'Not ready'), ok(health())],
    });
    renderPage();
    expect(await screen.findByTestId('monitor-error')).toHaveTextContent('Not ready');
    await userEvent.click(screen.getByRole('button', { name: 'Retry Connection' }));
    await vi.waitFor(() => expect(callsTo('GET /api/v1/admin/system/monitor')).toHaveLength(2));
  });

  it('polls realtime every 5 s while shown and stops when the page is left or auto-refresh is off', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { callsTo } = mockFetch(routes());
    const view = renderPage();
    await loaded();
    const realtime = () => callsTo('GET /api/v1/admin/system/realtime').length;
    const before = realtime();
    await act(() => vi.advanceTimersByTimeAsync(5100));
    expect(realtime()).toBe(before + 1);
    await userEvent.click(screen.getByRole('switch', { name: 'Auto-refresh' }));
    await act(() => vi.advanceTimersByTimeAsync(11_000));
    expect(realtime()).toBe(before + 1);
    await userEvent.click(screen.getByRole('switch', { name: 'Auto-refresh' }));
    view.unmount();
    const after = realtime();
    await act(() => vi.advanceTimersByTimeAsync(31_000));
    expect(realtime()).toBe(after);
  });

  it('switches maintenance on with its message, and the banner shows it', async () => {
    const { calls } = mockFetch({
      ...routes(),
      'POST /api/v1/admin/system/maintenance': ok({
        maintenance: { ...monitor().maintenance, enabled: true, message: 'Mise à jour' },
      }),
    });
    renderPage('admin');
    await loaded();
    await userEvent.type(screen.getByLabelText('Maintenance message'), 'Mise à jour');
    await userEvent.click(screen.getByTestId('maintenance-toggle'));
    await vi.waitFor(() =>
      expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ enabled: true, message: 'Mise à jour' }),
    );
    cleanup();
    mockFetch({ 'GET /api/v1/status': ok({ maintenance: { enabled: true, message: 'Mise à jour', since: 'x' } }) });
    renderPage('user', <MaintenanceBanner />);
    expect(await screen.findByTestId('maintenance-banner')).toHaveTextContent('Mise à jour');
    expect(within(screen.getByTestId('maintenance-banner')).getByText(/Maintenance/)).toBeInTheDocument();
  });
});
