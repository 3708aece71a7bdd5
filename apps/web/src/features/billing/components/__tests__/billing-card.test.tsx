import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { TBillingState } from '@docflow/contracts';
import { navigation } from '../../api/open-billing-page';
import { BillingCard } from '../billing-card';

const state: TBillingState = {
  provider: 'stripe',
  plans: [{ planName: 'pro', intervals: ['monthly', 'yearly'] }],
  subscription: {
    id: 'sub_1',
    planName: 'pro',
    planDisplayName: 'Pro',
    interval: 'monthly',
    status: 'active',
    currentPeriodStart: '2026-11-01T00:00:00Z',
    currentPeriodEnd: '2026-12-01T00:00:00Z',
    cancelAtPeriodEnd: false,
    graceUntil: null,
    endedAt: null,
  },
  nextInvoice: { amount: 29, currency: 'USD', date: '2026-12-01T00:00:00Z' },
  invoices: [
    {
      id: 'in_1',
      number: 'DF-0001',
      amount: 29,
      currency: 'USD',
      status: 'paid',
      date: '2026-11-01T00:00:00Z',
      hostedInvoiceUrl: 'https://stripe.test/invoices/in_1',
      pdfUrl: 'https://stripe.test/invoices/in_1/pdf',
    },
  ],
  invoicesAvailable: true,
};

function renderCard(s: TBillingState, extra: Partial<Parameters<typeof BillingCard>[0]> = {}) {
  const client = new QueryClient({ defaultOptions: { mutations: { retry: false } } });
  const onIntervalChange = vi.fn();
  render(
    <QueryClientProvider client={client}>
      <BillingCard state={s} interval="monthly" onIntervalChange={onIntervalChange} {...extra} />
    </QueryClientProvider>,
  );
  return { onIntervalChange };
}

describe('BillingCard', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });

  it('shows the plan, the current period, the next invoice and the invoices with their PDF links', () => {
    renderCard(state);
    expect(screen.getByTestId('billing-plan')).toHaveTextContent('Pro');
    expect(screen.getByTestId('billing-status')).toHaveTextContent('Active');
    expect(screen.getByTestId('billing-period')).toHaveTextContent('Nov 1, 2026 – Dec 1, 2026');
    expect(screen.getByTestId('billing-period-note')).toHaveTextContent('Renews on Dec 1, 2026');
    expect(screen.getByTestId('billing-next-invoice')).toHaveTextContent('$29.00 on Dec 1, 2026');
    const row = screen.getByTestId('billing-invoice');
    expect(row).toHaveTextContent('DF-0001');
    expect(row).toHaveTextContent('Paid');
    expect(within(row).getByRole('link', { name: 'PDF of invoice DF-0001' })).toHaveAttribute(
      'href',
      'https://stripe.test/invoices/in_1/pdf',
    );
    expect(within(row).getByRole('link', { name: 'Invoice DF-0001 on Stripe' })).toHaveAttribute(
      'href',
      'https://stripe.test/invoices/in_1',
    );
  });

  it('says when a cancelled plan ends, and the grace period after a failed payment', () => {
    renderCard({
      ...state,
      nextInvoice: null,
      subscription: { ...state.subscription!, cancelAtPeriodEnd: true },
    });
    expect(screen.getByTestId('billing-period-note')).toHaveTextContent(
      'Ends on Dec 1, 2026, then your account is on the Free plan',
    );
    expect(screen.getByTestId('billing-next-invoice')).toHaveTextContent('None: the subscription does not renew');
    cleanup();
    renderCard({
      ...state,
      subscription: { ...state.subscription!, status: 'past_due', graceUntil: '2026-12-08T00:00:00Z' },
    });
    expect(screen.getByTestId('billing-status')).toHaveTextContent('Payment overdue');
    expect(screen.getByTestId('billing-period-note')).toHaveTextContent('the plan is kept until Dec 8, 2026');
  });

  it('"Manage billing" opens the portal URL the server answers', async () => {
    const go = vi.spyOn(navigation, 'go').mockImplementation(() => undefined);
    const fetch = vi.fn(async () =>
      Response.json({ success: true, data: { url: 'https://stripe.test/portal/bps_1' } }),
    );
    vi.stubGlobal('fetch', fetch);
    renderCard(state);
    await userEvent.click(screen.getByRole('button', { name: 'Manage billing' }));
    await vi.waitFor(() => expect(go).toHaveBeenCalledWith('https://stripe.test/portal/bps_1'));
    expect(String((fetch.mock.calls[0] as unknown[])[0])).toContain('/api/v1/billing/portal');
  });

  it('deep links: "Update card" in the grace notice, "Change plan" and "Cancel plan" open the portal on that task', async () => {
    const go = vi.spyOn(navigation, 'go').mockImplementation(() => undefined);
    const fetch = vi.fn(async () =>
      Response.json({ success: true, data: { url: 'https://stripe.test/portal/bps_2' } }),
    );
    vi.stubGlobal('fetch', fetch);
    const sentFlows = () =>
      fetch.mock.calls.map((c) => {
        const body = ((c as unknown[])[1] as RequestInit | undefined)?.body;
        return body ? (JSON.parse(String(body)) as { flow?: string }).flow : undefined;
      });
    renderCard({
      ...state,
      subscription: { ...state.subscription!, status: 'past_due', graceUntil: '2026-12-08T00:00:00Z' },
    });
    const grace = screen.getByTestId('billing-grace');
    expect(grace).toHaveTextContent('Your last payment failed');
    expect(grace).toHaveTextContent('Your plan is kept until Dec 8, 2026');
    await userEvent.click(within(grace).getByRole('button', { name: 'Update card' }));
    await vi.waitFor(() => expect(go).toHaveBeenCalledWith('https://stripe.test/portal/bps_2'));
    await userEvent.click(screen.getByRole('button', { name: 'Cancel plan' }));
    await userEvent.click(screen.getByRole('button', { name: 'Change plan' }));
    await userEvent.click(screen.getByRole('button', { name: 'Manage billing' }));
    await vi.waitFor(() => expect(fetch).toHaveBeenCalledTimes(4));
    expect(sentFlows()).toEqual(['payment_method_update', 'subscription_cancel', 'subscription_update', undefined]);
  });

  it('no grace notice while paid; no cancel or change once cancelled or ended', () => {
    renderCard(state);
    expect(screen.queryByTestId('billing-grace')).toBeNull();
    expect(screen.getByRole('button', { name: 'Cancel plan' })).toBeInTheDocument();
    cleanup();
    renderCard({ ...state, subscription: { ...state.subscription!, cancelAtPeriodEnd: true } });
    expect(screen.queryByRole('button', { name: 'Cancel plan' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Change plan' })).toBeNull();
    cleanup();
    renderCard({
      ...state,
      subscription: { ...state.subscription!, status: 'canceled', endedAt: '2026-12-01T00:00:00Z' },
    });
    expect(screen.queryByRole('button', { name: 'Cancel plan' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Manage billing' })).toBeInTheDocument();
  });

  it('without a subscription: the offer to pay, the interval choice and a trial to convert', async () => {
    const onSubscribe = vi.fn();
    const { onIntervalChange } = renderCard(
      { ...state, subscription: null, nextInvoice: null, invoices: [] },
      { trials: [{ planName: 'pro', planDisplayName: 'Pro' }], onSubscribe },
    );
    expect(screen.getByText(/No subscription yet/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Manage billing' })).toBeNull();
    await userEvent.click(screen.getByRole('radio', { name: 'yearly' }));
    expect(onIntervalChange).toHaveBeenCalledWith('yearly');
    await userEvent.click(screen.getByRole('button', { name: 'Subscribe to Pro: your trial days are kept' }));
    expect(onSubscribe).toHaveBeenCalledWith('pro');
  });
});
