import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { TPlan, TUser } from '@docflow/contracts';
import { useAuthStore } from '@/lib/auth/auth-store';
import { makePlan } from '@/testing/fixtures';
import { PlansPage } from '../plans-page';

/** The one branch payments add to the plans page: Upgrade goes to the route's onUpgrade when it takes the plan. */

const catalogue: TPlan[] = [
  makePlan({ id: 'free', name: 'free', displayName: 'Free', price: 0, sortOrder: 1 }),
  makePlan({ id: 'pro', name: 'pro', displayName: 'Pro', price: 29, sortOrder: 2 }),
  makePlan({ id: 'enterprise', name: 'enterprise', displayName: 'Enterprise', price: 99, sortOrder: 3 }),
];

const user: TUser = {
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

function renderPage(props: Parameters<typeof PlansPage>[0]) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => Response.json({ success: true, data: { plans: catalogue } })),
  );
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <PlansPage {...props} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe('PlansPage with payments', () => {
  beforeEach(() => useAuthStore.setState({ user, token: 'access', isAuthenticated: true }));
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    useAuthStore.setState({ user: null, token: null, isAuthenticated: false });
  });

  it('Upgrade goes to onUpgrade, with no trial dialog, and the billing card shows', async () => {
    const onUpgrade = vi.fn(() => true);
    renderPage({ onUpgrade, billing: <p>billing card here</p> });
    const pro = await screen.findByRole('article', { name: 'Pro' });
    expect(screen.getByText('billing card here')).toBeInTheDocument();
    await userEvent.click(within(pro).getByRole('button', { name: 'Upgrade Now' }));
    expect(onUpgrade).toHaveBeenCalledWith(expect.objectContaining({ name: 'pro' }));
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it("a plan onUpgrade does not take keeps the page's own Upgrade", async () => {
    const onUpgrade = vi.fn(() => false);
    renderPage({ onUpgrade });
    const enterprise = await screen.findByRole('article', { name: 'Enterprise' });
    await userEvent.click(within(enterprise).getByRole('button', { name: 'Upgrade Now' }));
    expect(onUpgrade).toHaveBeenCalledOnce();
    expect(await screen.findByRole('dialog')).toBeInTheDocument();
  });
});
