import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import type { TPlan, TPlanRequest } from '@docflow/contracts';
import { useAuthStore } from '@/lib/auth/auth-store';
import { makePlan, makeUser } from '@/testing/fixtures';
import { apiError, json, mockFetch } from '@/testing/mock-fetch';
import { renderWithProviders } from '@/testing/test-utils';
import { PlansPage } from '../plans-page';

const catalogue: TPlan[] = [
  makePlan({ id: 'free', name: 'free', displayName: 'Free', price: 0, sortOrder: 1 }),
  makePlan({ id: 'pro', name: 'pro', displayName: 'Pro', price: 29, sortOrder: 2 }),
  makePlan({ id: 'enterprise', name: 'enterprise', displayName: 'Enterprise', price: 99, sortOrder: 3 }),
];
const request = (over: Partial<TPlanRequest>): TPlanRequest => ({
  id: 'r1',
  planName: 'pro',
  planDisplayName: 'Pro',
  billingPeriod: 'monthly',
  message: null,
  status: 'pending',
  grantedPlanName: null,
  grantedPlanDisplayName: null,
  grantedUntil: null,
  decidedAt: null,
  decisionNote: null,
  createdAt: '2026-11-01T10:00:00Z',
  ...over,
});
const free = { planName: 'free', planDisplayName: 'Free', isActive: true, status: 'active', expiresAt: null };
const spentTrial = { planName: 'pro', planDisplayName: 'Pro', isActive: false, status: 'expired', expiresAt: null };

describe('plan requests on /plans (no payment provider)', () => {
  beforeEach(() => {
    useAuthStore.setState({ user: makeUser({ plans: [free, spentTrial] }), token: 'access', isAuthenticated: true });
  });
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    useAuthStore.setState({ user: null, token: null, isAuthenticated: false });
  });

  it('"Upgrade Now" after a spent trial sends a request (plan, period, message), and the page shows it waiting', async () => {
    const sent: TPlanRequest[] = [];
    const api = mockFetch({
      'GET /api/v1/plans': () => json(200, { success: true, data: { plans: catalogue } }),
      'GET /api/v1/my/plan-requests': () => json(200, { success: true, data: { requests: sent } }),
      'POST /api/v1/my/plan-requests': (call) => {
        const body = call.body as { planName: string; billingPeriod: 'monthly' | 'yearly'; message?: string };
        sent.push(request({ billingPeriod: body.billingPeriod, message: body.message ?? null }));
        return json(201, { success: true, data: { request: sent[0] } });
      },
    });
    const { user } = renderWithProviders(<PlansPage />);
    await screen.findByTestId('plans-grid');
    await user.click(within(screen.getByRole('article', { name: 'Pro' })).getByRole('button', { name: 'Upgrade Now' }));

    // No trial dialog: the request dialog, on Pro.
    expect(screen.queryByRole('dialog', { name: /trial/ })).not.toBeInTheDocument();
    const dialog = await screen.findByRole('dialog', { name: 'Request a plan' });
    expect(within(dialog).getByLabelText('Plan')).toHaveValue('pro');
    await user.selectOptions(within(dialog).getByLabelText('Billing period'), 'yearly');
    await user.type(within(dialog).getByLabelText(/Message/), 'Invoices');
    await user.click(within(dialog).getByRole('button', { name: 'Send request' }));

    expect(api.callsTo('POST /api/v1/my/plan-requests')[0]!.body).toEqual({
      planName: 'pro',
      billingPeriod: 'yearly',
      message: 'Invoices',
    });
    const state = await screen.findByTestId('plan-request');
    expect(state).toHaveTextContent('Pro · Yearly');
    expect(within(state).getByText('Waiting for an answer')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('"Contact Sales" asks for the largest plan; a refusal is shown in the dialog', async () => {
    mockFetch({
      'GET /api/v1/plans': () => json(200, { success: true, data: { plans: catalogue } }),
      'GET /api/v1/my/plan-requests': () => json(200, { success: true, data: { requests: [] } }),
      'POST /api/v1/my/plan-requests': () =>
        apiError(409, 'CONFLICT', 'A request for the Enterprise plan is already waiting for an answer'),
    });
    const { user } = renderWithProviders(<PlansPage />);
    await screen.findByTestId('plans-grid');
    await user.click(screen.getByRole('button', { name: 'Contact Sales' }));
    const dialog = await screen.findByRole('dialog', { name: 'Request a plan' });
    expect(within(dialog).getByLabelText('Plan')).toHaveValue('enterprise');
    await user.click(within(dialog).getByRole('button', { name: 'Send request' }));
    expect(await within(dialog).findByText(/already waiting for an answer/)).toBeInTheDocument();
  });

  it('shows a granted request with its end date and note, and withdraws a pending one', async () => {
    const requests = [
      request({ id: 'r2', status: 'pending', planName: 'enterprise', planDisplayName: 'Enterprise' }),
      request({
        status: 'granted',
        grantedPlanName: 'pro',
        grantedPlanDisplayName: 'Pro',
        grantedUntil: '2027-11-28T12:00:00Z',
        decisionNote: 'Welcome to Pro!',
      }),
    ];
    const api = mockFetch({
      'GET /api/v1/plans': () => json(200, { success: true, data: { plans: catalogue } }),
      'GET /api/v1/my/plan-requests': () => json(200, { success: true, data: { requests } }),
      'DELETE /api/v1/my/plan-requests/r2': () =>
        json(200, { success: true, data: { request: { ...requests[0], status: 'cancelled' } } }),
    });
    const { user } = renderWithProviders(<PlansPage />);
    const lines = await screen.findAllByTestId('plan-request');
    expect(lines[1]).toHaveTextContent('Pro plan granted until Nov 28, 2027.');
    expect(lines[1]).toHaveTextContent('Welcome to Pro!');
    await user.click(within(lines[0]!).getByRole('button', { name: 'Withdraw' }));
    expect(api.callsTo('DELETE /api/v1/my/plan-requests/r2')).toHaveLength(1);
  });
});
