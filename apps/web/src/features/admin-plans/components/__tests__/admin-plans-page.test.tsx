import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { TPlan } from '@docflow/contracts';
import { useAuthStore } from '@/lib/auth/auth-store';
import { toast } from '@/lib/toast';
import { makeUser } from '@/testing/fixtures';
import { json, mockFetch } from '@/testing/mock-fetch';
import { AdminPlansPage } from '../admin-plans-page';

vi.mock('@/lib/toast', () => import('@/testing/mock-toast'));

const plan = (over: Partial<TPlan>): TPlan => ({
  id: over.name ?? 'p',
  name: 'pro',
  displayName: 'Pro',
  description: 'For production',
  price: 29,
  currency: 'USD',
  billingPeriod: 'monthly',
  maxRequestsPerMonth: 50_000,
  maxRequestsPerHour: 5000,
  maxRequestsPerMinute: 100,
  maxFileSize: 50 * 1_048_576,
  maxPagesPerPdf: 500,
  maxApiKeysPerUser: 5,
  burstLimit: null,
  allowedEndpoints: ['pdf', 'conversion'],
  features: [],
  validityDays: null,
  isActive: true,
  isPublic: true,
  isRecommended: false,
  sortOrder: 1,
  ...over,
});

function renderPage(role: 'user' | 'admin' | 'super_admin' | 'owner') {
  useAuthStore.setState({ user: makeUser({ role }), isAuthenticated: true, token: 't' });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <AdminPlansPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('AdminPlansPage', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.clearAllMocks();
  });

  it('an admin below super_admin sees Accès refusé with the roles required, and nothing is fetched', () => {
    const { calls } = mockFetch({});
    renderPage('admin');
    expect(screen.getByTestId('plans-restricted')).toHaveTextContent('Access denied');
    expect(screen.getByTestId('plans-restricted')).toHaveTextContent('Required roles: super admin, owner');
    expect(calls).toHaveLength(0);
  });

  it('lists every plan (private and inactive too) and sends only what changed', async () => {
    const { calls } = mockFetch({
      'GET /api/v1/admin/plans': () =>
        json(200, {
          success: true,
          data: { plans: [plan({}), plan({ name: 'internal', displayName: 'Internal', isPublic: false })] },
        }),
      'PUT /api/v1/admin/plans/pro': () =>
        json(200, { success: true, data: { plan: plan({ maxRequestsPerMinute: 250 }) } }),
    });
    renderPage('owner');
    const pro = await screen.findByTestId('admin-plan-pro');
    expect(within(screen.getByTestId('admin-plan-internal')).getByText('Private')).toBeInTheDocument();
    await userEvent.click(within(pro).getByRole('button', { name: 'Edit Pro' }));
    const minute = screen.getByLabelText('Requests / minute');
    await userEvent.clear(minute);
    await userEvent.type(minute, '250');
    await userEvent.click(screen.getByRole('button', { name: 'Save plan' }));
    await vi.waitFor(() => expect(toast.success).toHaveBeenCalledWith('Plan updated successfully!'));
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({ maxRequestsPerMinute: 250 });
  });

  it('edits the limit and the other bullets: the limit bullet follows the limit; a bullet stating a limit is refused', async () => {
    let served = plan({ features: ['E-mail support'] });
    const { calls } = mockFetch({
      'GET /api/v1/admin/plans': () => json(200, { success: true, data: { plans: [served] } }),
      'PUT /api/v1/admin/plans/pro': (call) => {
        served = { ...served, ...(call.body as Partial<TPlan>) };
        return json(200, { success: true, data: { plan: served } });
      },
    });
    renderPage('owner');
    const card = await screen.findByTestId('admin-plan-pro');
    const bullets = () =>
      within(screen.getByTestId('admin-plan-pro'))
        .getAllByRole('listitem')
        .map((li) => li.textContent);
    expect(bullets()).toContain('50,000 requests/month');
    expect(bullets().at(-1)).toBe('E-mail support');

    await userEvent.click(within(card).getByRole('button', { name: 'Edit Pro' }));
    const month = screen.getByLabelText('Requests / month');
    await userEvent.clear(month);
    await userEvent.type(month, '75000');
    const other = screen.getByLabelText('Other bullets (one a line)');
    expect(other).toHaveValue('E-mail support');
    await userEvent.type(other, '{enter}50,000 requests per month');
    expect(screen.getByRole('alert')).toHaveTextContent('"50,000 requests per month" states a limit');
    expect(screen.getByRole('button', { name: 'Save plan' })).toBeDisabled();
    await userEvent.clear(other);
    await userEvent.type(other, 'E-mail support{enter}{enter}99.9% uptime SLA');
    await userEvent.click(screen.getByRole('button', { name: 'Save plan' }));
    await vi.waitFor(() => expect(toast.success).toHaveBeenCalledWith('Plan updated successfully!'));
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({
      maxRequestsPerMonth: 75000,
      features: ['E-mail support', '99.9% uptime SLA'],
    });
    await vi.waitFor(() => expect(bullets()).toContain('75,000 requests/month'));
    expect(bullets()).not.toContain('50,000 requests/month');
    expect(bullets().slice(-2)).toEqual(['E-mail support', '99.9% uptime SLA']);
  });
});
