import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { TPlan, TUser } from '@docflow/contracts';
import { useAuthStore } from '@/lib/auth/auth-store';
import { makePlan } from '@/testing/fixtures';
import { PlansPage } from '../plans-page';

const plan = (over: Partial<TPlan>): TPlan => makePlan({ id: over.name ?? 'id', ...over });

const catalogue: TPlan[] = [
  plan({
    name: 'enterprise',
    displayName: 'Enterprise',
    price: 99,
    sortOrder: 3,
    maxRequestsPerMonth: 1_000_000,
    burstLimit: null,
    maxPagesPerPdf: null,
    validityDays: 365,
  }),
  plan({ name: 'free', displayName: 'Free', price: 0, sortOrder: 1, features: ['1,000 requests per month'] }),
  plan({
    name: 'pro',
    displayName: 'Pro',
    price: 29,
    sortOrder: 2,
    isRecommended: true,
    allowedEndpoints: ['conversion', 'pdf', 'ocr', 'qrcode'],
  }),
  plan({ name: 'secret', displayName: 'Secret', isPublic: false, sortOrder: 0 }),
  plan({ name: 'retired', displayName: 'Retired', isActive: false, sortOrder: 0 }),
];

const baseUser: TUser = {
  id: 'u1',
  email: 'ada@example.com',
  name: 'Ada Lovelace',
  company: null,
  role: 'user',
  isActive: true,
  emailVerified: true,
  emailVerifiedAt: '2025-01-01T00:00:00Z',
  registrationSource: 'web',
  country: null,
  timezone: null,
  language: null,
  createdAt: '2025-01-01T00:00:00Z',
  lastLoginAt: null,
  plan: 'free',
  plans: [{ planName: 'free', planDisplayName: 'Free', isActive: true, status: 'active' }],
  activeplan: null,
};

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

type Route = (method: string, path: string, body: unknown) => Response | Promise<Response> | undefined;

function mockFetch(route: Route) {
  const fn = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const body = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    const res = await route(init?.method ?? 'GET', url.pathname, body);
    if (!res) throw new Error(`unexpected ${init?.method ?? 'GET'} ${url.pathname}`);
    return res;
  });
  vi.stubGlobal('fetch', fn);
  return fn;
}

function renderPage(apiKeys?: Parameters<typeof PlansPage>[0]['apiKeys']) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <PlansPage apiKeys={apiKeys} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const card = (name: string) => screen.getByRole('article', { name });

describe('PlansPage', () => {
  beforeEach(() => {
    useAuthStore.setState({ user: baseUser, token: 'access', isAuthenticated: true });
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    useAuthStore.setState({ user: null, token: null, isAuthenticated: false });
  });

  it('shows the loading state while the plans load', () => {
    mockFetch(() => new Promise<Response>(() => undefined));
    renderPage();
    expect(screen.getByText('Loading plans...')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Choose Your Plan' })).toBeInTheDocument();
  });

  it('shows the error with its text and retries', async () => {
    let calls = 0;
    mockFetch((method, path) => {
      if (method === 'GET' && path === '/api/v1/plans') {
        calls += 1;
        return calls === 1
          ? json(503, { success: false, error: 'Database unreachable', code: 'SERVICE_UNAVAILABLE', requestId: 'r1' })
          : json(200, { success: true, data: { plans: catalogue } });
      }
      return undefined;
    });
    renderPage();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Error while loading the plans');
    expect(alert).toHaveTextContent('Database unreachable');
    await userEvent.click(screen.getByRole('button', { name: 'Retry' }));
    expect(await screen.findByRole('article', { name: 'Pro' })).toBeInTheDocument();
    expect(calls).toBe(2);
  });

  it("tells the trial of the paid plans with the server's trial length, and no figure before it is known", async () => {
    let days: number | null = null;
    mockFetch((_m, path) => {
      if (path === '/api/v1/plans') return json(200, { success: true, data: { plans: catalogue } });
      if (path === '/api/v1/service-info' && days !== null)
        return json(200, {
          success: true,
          data: { service: { jobResultRetentionHours: 24, uploadsKept: false, trialDays: days } },
        });
      return json(503, { success: false, error: 'down', code: 'SERVICE_UNAVAILABLE', requestId: 'r' });
    });
    renderPage();
    expect(await screen.findByText(/Each paid plan can be tried free, once per e-mail address/)).toBeInTheDocument();
    cleanup();
    days = 21;
    renderPage();
    expect(
      await screen.findByText(/Each paid plan can be tried free for 21 days, once per e-mail address/),
    ).toBeInTheDocument();
    expect(screen.queryByText(/All plans include/)).toBeNull();
  });

  it('shows the empty state when no plan is public and active', async () => {
    mockFetch((_m, path) =>
      path === '/api/v1/plans' ? json(200, { success: true, data: { plans: catalogue.slice(3) } }) : undefined,
    );
    renderPage();
    expect(await screen.findByText('No plans available')).toBeInTheDocument();
  });

  it('lists public, active plans by sortOrder with their details and buttons', async () => {
    mockFetch((_m, path) =>
      path === '/api/v1/plans' ? json(200, { success: true, data: { plans: catalogue } }) : undefined,
    );
    renderPage();
    await screen.findByTestId('plans-grid');
    const names = screen.getAllByRole('article').map((a) => a.getAttribute('data-plan'));
    expect(names).toEqual(['free', 'pro', 'enterprise']);

    expect(screen.getByTestId('current-plan-badge')).toHaveTextContent('Free');
    expect(within(card('Pro')).getByText('Most Popular')).toBeInTheDocument();
    expect(within(card('Free')).queryByText('Most Popular')).not.toBeInTheDocument();

    const free = within(card('Free'));
    expect(free.getByRole('button', { name: 'Active Plan' })).toBeDisabled();
    expect(free.getByTestId('plan-status-badge')).toHaveTextContent('Active Plan');
    expect(free.getByText('PDF pages')).toBeInTheDocument();
    expect(free.getByText('Burst')).toBeInTheDocument();
    expect(free.getByText('1,000 requests per month')).toBeInTheDocument();

    const enterprise = within(card('Enterprise'));
    expect(enterprise.getByRole('button', { name: 'Upgrade Now' })).toBeEnabled();
    expect(enterprise.queryByText('PDF pages')).not.toBeInTheDocument();
    expect(enterprise.queryByText('Burst')).not.toBeInTheDocument();
    expect(enterprise.getByText('Valid 365 days')).toBeInTheDocument();
    expect(enterprise.getByText('1,000,000 requests / month')).toBeInTheDocument();
    expect(enterprise.getByText(/99\s\$US/)).toBeInTheDocument();

    expect(within(card('Pro')).getByText('OCR')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Contact Sales' })).toBeInTheDocument();
    expect(screen.getByText(/Each paid plan can be tried free/)).toBeInTheDocument();
    expect(screen.getByText(/Prices exclude taxes/)).toBeInTheDocument();
  });

  it("offers 'Get Started' on a free plan the user does not hold", async () => {
    useAuthStore.setState({
      user: { ...baseUser, plans: [{ planName: 'pro', planDisplayName: 'Pro', isActive: true, status: 'active' }] },
    });
    mockFetch((_m, path) =>
      path === '/api/v1/plans' ? json(200, { success: true, data: { plans: catalogue } }) : undefined,
    );
    renderPage();
    await screen.findByTestId('plans-grid');
    expect(within(card('Free')).getByRole('button', { name: 'Get Started' })).toBeEnabled();
    expect(within(card('Pro')).getByRole('button', { name: 'Active Plan' })).toBeDisabled();
    expect(screen.getByTestId('current-plan-badge')).toHaveTextContent('Pro');
  });

  it('counts the plans of active keys as owned', async () => {
    mockFetch((_m, path) =>
      path === '/api/v1/plans' ? json(200, { success: true, data: { plans: catalogue } }) : undefined,
    );
    renderPage([{ planName: 'enterprise', planDisplayName: 'Enterprise', isActive: true }]);
    await screen.findByTestId('plans-grid');
    expect(screen.getByTestId('current-plan-badge')).toHaveTextContent('Enterprise +1');
    expect(within(card('Enterprise')).getByTestId('plan-status-badge')).toHaveTextContent('Primary Plan');
    expect(within(card('Free')).getByTestId('plan-status-badge')).toHaveTextContent('Active Plan');
  });

  it('starts a trial and the badges follow', async () => {
    const trialUser: TUser = {
      ...baseUser,
      plans: [
        ...baseUser.plans,
        {
          planName: 'pro',
          planDisplayName: 'Pro',
          isActive: true,
          status: 'trial',
          expiresAt: new Date(Date.now() + 14 * 86_400_000).toISOString(),
        },
      ],
    };
    const fetchMock = mockFetch((method, path, body) => {
      if (path === '/api/v1/plans') return json(200, { success: true, data: { plans: catalogue } });
      if (method === 'POST' && path === '/api/v1/my/subscriptions') {
        expect(body).toEqual({ planName: 'pro' });
        return json(201, {
          success: true,
          data: {
            subscription: {
              id: 's1',
              planName: 'pro',
              planDisplayName: 'Pro',
              status: 'trial',
              isActive: true,
              source: 'trial',
              startedAt: null,
              expiresAt: null,
              daysRemaining: 14,
            },
          },
        });
      }
      if (method === 'GET' && path === '/api/v1/auth/me')
        return json(200, { success: true, data: { user: trialUser } });
      return undefined;
    });
    renderPage();
    await screen.findByTestId('plans-grid');
    await userEvent.click(within(card('Pro')).getByRole('button', { name: 'Upgrade Now' }));
    // Nothing starts before the user confirms, told it is one trial per e-mail address.
    const dialog = await screen.findByRole('dialog', { name: 'Start the Pro trial?' });
    expect(dialog).toHaveTextContent('An e-mail address gets one free trial, ever');
    const posted = () =>
      fetchMock.mock.calls.some(([u, init]) => String(u).endsWith('/my/subscriptions') && init?.method === 'POST');
    expect(posted()).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Not now' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(posted()).toBe(false);
    await userEvent.click(within(card('Pro')).getByRole('button', { name: 'Upgrade Now' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Start the Pro trial?' })).getByRole('button', {
        name: 'Start the trial',
      }),
    );

    await waitFor(() => expect(screen.getByTestId('current-plan-badge')).toHaveTextContent('Pro +1'));
    expect(within(card('Pro')).getByTestId('plan-status-badge')).toHaveTextContent('Primary Plan');
    expect(within(card('Pro')).getByRole('button', { name: 'Active Plan' })).toBeDisabled();
    expect(within(card('Pro')).getByText(/Free trial · 14 days left/)).toBeInTheDocument();
    expect(
      fetchMock.mock.calls.some(([u, init]) => String(u).endsWith('/my/subscriptions') && init?.method === 'POST'),
    ).toBe(true);
  });
});
