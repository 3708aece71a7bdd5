import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import type { TAdminPlanRequest, TAdminSupportMessage } from '@docflow/contracts';
import { useAuthStore } from '@/lib/auth/auth-store';
import { makePlan, makeUser } from '@/testing/fixtures';
import { json, mockFetch } from '@/testing/mock-fetch';
import { renderWithProviders } from '@/testing/test-utils';
import { CustomerRequestsPage } from '../customer-requests-page';

const customer = { id: 'u2', email: 'ada@example.com', name: 'Ada Lovelace' };
const pending: TAdminPlanRequest = {
  id: 'r1',
  planName: 'pro',
  planDisplayName: 'Pro',
  billingPeriod: 'yearly',
  message: 'About 20,000 invoices a month',
  status: 'pending',
  grantedPlanName: null,
  grantedPlanDisplayName: null,
  grantedUntil: null,
  decidedAt: null,
  decisionNote: null,
  createdAt: '2026-11-01T10:00:00Z',
  user: customer,
  decidedBy: null,
};
const open: TAdminSupportMessage = {
  id: 'm1',
  category: 'billing',
  subject: 'Invoice address',
  body: 'Please add our VAT number.',
  status: 'open',
  reply: null,
  handledAt: null,
  createdAt: '2026-11-01T10:00:00Z',
  user: customer,
  handledBy: null,
};

function routes() {
  return mockFetch({
    'GET /api/v1/admin/plan-requests': () => json(200, { success: true, data: { requests: [pending] } }),
    'GET /api/v1/admin/support-messages': () => json(200, { success: true, data: { messages: [open] } }),
    'GET /api/v1/plans': () =>
      json(200, {
        success: true,
        data: {
          plans: [
            makePlan({ id: 'p', name: 'pro', displayName: 'Pro', price: 29 }),
            makePlan({ id: 'e', name: 'enterprise', displayName: 'Enterprise', price: 99 }),
          ],
        },
      }),
    'POST /api/v1/admin/plan-requests/r1/grant': () => json(200, { success: true, data: {} }),
    'POST /api/v1/admin/plan-requests/r1/decline': () => json(200, { success: true, data: {} }),
    'POST /api/v1/admin/support-messages/m1/handle': () => json(200, { success: true, data: {} }),
  });
}

describe('CustomerRequestsPage (/admin/requests)', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    useAuthStore.setState({ user: null, token: null, isAuthenticated: false });
  });

  it('shows a plain user the restricted view and asks the server nothing', async () => {
    useAuthStore.setState({ user: makeUser({ role: 'user' }), token: 'access', isAuthenticated: true });
    const api = routes();
    renderWithProviders(<CustomerRequestsPage />);
    expect(await screen.findByTestId('requests-restricted')).toHaveTextContent('Access denied');
    expect(api.calls).toHaveLength(0);
  });

  it('grants the requested plan for the requested period, declines with a note, marks a message handled', async () => {
    useAuthStore.setState({ user: makeUser({ role: 'admin' }), token: 'access', isAuthenticated: true });
    const api = routes();
    const { user } = renderWithProviders(<CustomerRequestsPage />);
    const row = await screen.findByTestId('admin-plan-request');
    expect(row).toHaveTextContent('ada@example.com');
    expect(row).toHaveTextContent('Pro · yearly');
    expect(row).toHaveTextContent('About 20,000 invoices a month');

    await user.click(within(row).getByRole('button', { name: 'Grant' }));
    const grant = await screen.findByRole('dialog', { name: 'Grant a plan' });
    await within(grant).findByRole('option', { name: 'Enterprise' });
    expect(within(grant).getByLabelText('Period')).toHaveValue('yearly');
    await user.click(within(grant).getByRole('button', { name: 'Grant' }));
    expect(api.callsTo('POST /api/v1/admin/plan-requests/r1/grant')[0]!.body).toEqual({ planName: 'pro', days: 365 });

    await user.click(within(await screen.findByTestId('admin-plan-request')).getByRole('button', { name: 'Decline' }));
    const decline = await screen.findByRole('dialog', { name: 'Decline the request' });
    expect(within(decline).getByRole('button', { name: 'Decline' })).toBeDisabled(); // a note is required
    await user.type(within(decline).getByLabelText(/Note to the customer/), 'Write to sales');
    await user.click(within(decline).getByRole('button', { name: 'Decline' }));
    expect(api.callsTo('POST /api/v1/admin/plan-requests/r1/decline')[0]!.body).toEqual({ note: 'Write to sales' });

    const message = await screen.findByTestId('admin-support-message');
    expect(message).toHaveTextContent('Please add our VAT number.');
    await user.click(within(message).getByRole('button', { name: 'Mark handled' }));
    const handle = await screen.findByRole('dialog', { name: 'Mark the message handled' });
    await user.type(within(handle).getByLabelText(/Reply/), 'Done');
    await user.click(within(handle).getByRole('button', { name: 'Mark handled' }));
    expect(api.callsTo('POST /api/v1/admin/support-messages/m1/handle')[0]!.body).toEqual({ reply: 'Done' });
  });
});
