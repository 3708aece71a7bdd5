import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { TAdminBillingEvent } from '@docflow/contracts';
import { useAuthStore } from '@/lib/auth/auth-store';
import { makeUser } from '@/testing/fixtures';
import { json, mockFetch } from '@/testing/mock-fetch';
import { renderWithProviders } from '@/testing/test-utils';
import { BillingEventsPage } from '../billing-events-page';

function renderPage(role: 'user' | 'admin') {
  useAuthStore.setState({ user: makeUser({ role }), isAuthenticated: true, token: 't' });
  renderWithProviders(<BillingEventsPage />);
}

const processed: TAdminBillingEvent = {
  id: 'evt_paid',
  type: 'invoice.paid',
  created: '2026-11-25T01:00:00Z',
  received: '2026-11-25T01:00:02Z',
  status: 'processed',
  processedAt: '2026-11-25T01:00:03Z',
  outcome: 'applied',
  error: null,
  failedAt: null,
};
const failed: TAdminBillingEvent = {
  id: 'evt_failed',
  type: 'customer.subscription.updated',
  created: '2026-11-25T02:00:00Z',
  received: '2026-11-25T02:00:01Z',
  status: 'failed',
  processedAt: null,
  outcome: null,
  error: "The payment provider did not answer (subscription); try again shortly: No such subscription: 'sub_gone'",
  failedAt: '2026-11-25T02:00:01Z',
};

describe('BillingEventsPage (/admin/billing-events)', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('a customer sees Access denied and nothing is fetched', () => {
    const { calls } = mockFetch({});
    renderPage('user');
    expect(screen.getByTestId('billing-events-restricted')).toHaveTextContent('Access denied');
    expect(calls).toHaveLength(0);
  });

  it('lists each event with its type, id, status and result, and asks again filtered by type and status', async () => {
    const { calls } = mockFetch({
      'GET /api/v1/admin/billing/events': () =>
        json(200, {
          success: true,
          data: {
            events: [failed, processed],
            pagination: { page: 1, limit: 25, total: 2, totalPages: 1 },
            types: ['customer.subscription.updated', 'invoice.paid'],
          },
        }),
    });
    renderPage('admin');
    const rows = await screen.findAllByTestId('billing-event-row');
    expect(rows).toHaveLength(2);
    expect(within(rows[0]!).getByText('customer.subscription.updated')).toBeInTheDocument();
    expect(within(rows[0]!).getByText('evt_failed')).toBeInTheDocument();
    expect(within(rows[0]!).getByTestId('billing-event-status')).toHaveTextContent('Failed');
    expect(rows[0]).toHaveTextContent("No such subscription: 'sub_gone'");
    expect(within(rows[1]!).getByTestId('billing-event-status')).toHaveTextContent('Processed');
    expect(rows[1]).toHaveTextContent('applied');
    expect(screen.getByText('Page 1 / 1 · 2 events')).toBeInTheDocument();

    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Status' }), 'failed');
    await vi.waitFor(() => expect(calls.at(-1)!.url).toContain('status=failed'));
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Type' }), 'invoice.paid');
    await vi.waitFor(() => expect(calls.at(-1)!.url).toContain('type=invoice.paid'));
    expect(calls.at(-1)!.url).toContain('status=failed');
    expect(calls.at(-1)!.url).toContain('page=1');
  });

  it('says when no event was received', async () => {
    mockFetch({
      'GET /api/v1/admin/billing/events': () =>
        json(200, {
          success: true,
          data: { events: [], pagination: { page: 1, limit: 25, total: 0, totalPages: 1 }, types: [] },
        }),
    });
    renderPage('admin');
    expect(await screen.findByText('No Stripe event received yet.')).toBeInTheDocument();
  });
});
