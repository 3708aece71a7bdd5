import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import type { TAdminUser } from '@docflow/contracts';
import { useAuthStore } from '@/lib/auth/auth-store';
import { toast } from '@/lib/toast';
import { makeUser } from '@/testing/fixtures';
import { apiError, json, mockFetch } from '@/testing/mock-fetch';
import { UsersPage } from '../users-page';

vi.mock('@/lib/toast', () => import('@/testing/mock-toast'));

const adminUser = (over: Partial<TAdminUser>): TAdminUser => ({
  ...makeUser(),
  mustChangePassword: false,
  apiKeysCount: 0,
  ...over,
});
const page = (users: TAdminUser[]) =>
  json(200, {
    success: true,
    data: {
      users,
      pagination: { page: 1, limit: 50, total: users.length, totalPages: 1 },
      counts: { total: 12, active: 10, verified: 9, apiRegistrations: 3 },
    },
  });

function renderPage(role: 'user' | 'admin' | 'owner' = 'admin') {
  useAuthStore.setState({ user: makeUser({ role }), isAuthenticated: true, token: 't' });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <UsersPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const ada = adminUser({
  id: 'u1',
  name: 'Ada King',
  email: 'ada@example.test',
  company: 'Engines',
  role: 'admin',
  country: 'FR',
  timezone: 'Europe/Paris',
});
const bob = adminUser({ id: 'u2', name: 'Bob Unverified', email: 'bob@example.test', emailVerified: false });
const cid = adminUser({ id: 'u3', name: 'Cid Off', email: 'cid@example.test', isActive: false });

describe('UsersPage', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
    vi.clearAllMocks();
  });

  it('plain users see Accès refusé with their role and the roles required, and nothing is fetched', () => {
    const { calls } = mockFetch({});
    renderPage('user');
    expect(screen.getByTestId('users-restricted')).toHaveTextContent('Access denied');
    expect(screen.getByTestId('users-restricted')).toHaveTextContent('Required roles: admin, super_admin, owner');
    expect(calls).toHaveLength(0);
  });

  it('loads page 1 with limit 50 and shows rows, statuses, role labels, location and the four counts', async () => {
    const { calls } = mockFetch({ 'GET /api/v1/admin/users': () => page([ada, bob, cid]) });
    renderPage();
    const rows = await screen.findAllByTestId('user-row');
    expect(rows).toHaveLength(3);
    expect(calls[0]!.url).toContain('page=1&limit=50');
    expect(within(rows[0]!).getByText('Administrator')).toBeInTheDocument();
    expect(within(rows[0]!).getByTestId('user-status')).toHaveTextContent('Active');
    expect(within(rows[0]!).getByText('Europe/Paris')).toBeInTheDocument();
    expect(within(rows[1]!).getByTestId('user-status')).toHaveTextContent('Email not verified');
    expect(within(rows[2]!).getByTestId('user-status')).toHaveTextContent('Inactive');
    expect(screen.getByTestId('user-counts')).toHaveTextContent('12');
    expect(screen.getByTestId('user-counts')).toHaveTextContent('API sign-ups3');
  });

  it("offers no deactivation or deletion of the admin's own account (the server refuses both)", async () => {
    const me = adminUser({ id: makeUser().id, name: 'Ada Lovelace', email: 'ada@example.com', role: 'admin' });
    mockFetch({ 'GET /api/v1/admin/users': () => page([me, bob]) });
    renderPage('admin');
    const [mine, other] = await screen.findAllByTestId('user-row');
    expect(within(mine!).getByRole('button', { name: 'Edit Ada Lovelace' })).toBeInTheDocument();
    expect(within(mine!).queryByRole('button', { name: /Deactivate|Delete/ })).toBeNull();
    expect(within(other!).getByRole('button', { name: 'Deactivate Bob Unverified' })).toBeInTheDocument();
    expect(within(other!).getByRole('button', { name: 'Delete Bob Unverified' })).toBeInTheDocument();
  });

  it('sends the search, role and source to the server, and says when nothing matches', async () => {
    const { calls } = mockFetch({ 'GET /api/v1/admin/users': () => page([]) });
    renderPage();
    expect(await screen.findByTestId('users-empty')).toHaveTextContent('No user found');
    await userEvent.type(screen.getByLabelText('Search users'), 'ada');
    await userEvent.selectOptions(screen.getByLabelText('Role'), 'owner');
    await userEvent.selectOptions(screen.getByLabelText('Source'), 'api');
    await vi.waitFor(() => expect(calls.at(-1)!.url).toContain('search=ada&role=owner&source=api'));
  });

  it('shows the load error with a retry', async () => {
    const { callsTo } = mockFetch({
      'GET /api/v1/admin/users': [
        () => apiError(500, 'INTERNAL_ERROR', 'Error while loading the users'),
        () => page([ada]),
      ],
    });
    renderPage();
    expect(await screen.findByTestId('users-error')).toHaveTextContent('Error while loading the users');
    await userEvent.click(screen.getByRole('button', { name: /Retry/ }));
    expect(await screen.findAllByTestId('user-row')).toHaveLength(1);
    expect(callsTo('GET /api/v1/admin/users')).toHaveLength(2);
  });

  it('asks before deleting, locks the dialog while it runs, and toasts the keys removed', async () => {
    let release!: () => void;
    mockFetch({
      'GET /api/v1/admin/users': () => page([ada]),
      'DELETE /api/v1/admin/users/u1': () =>
        new Promise<Response>((r) => {
          release = () => r(json(200, { success: true, data: { deletedUser: ada, deletedApiKeys: 2 } }));
        }),
    });
    renderPage('owner');
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Ada King' }));
    const dialog = screen.getByTestId('confirm-dialog');
    expect(dialog).toHaveTextContent('Are you sure you want to delete "Ada King"? This action cannot be undone.');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await vi.waitFor(() => expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeDisabled());
    await userEvent.keyboard('{Escape}');
    expect(screen.getByTestId('confirm-dialog')).toBeInTheDocument();
    release();
    await vi.waitFor(() =>
      expect(toast.success).toHaveBeenCalledWith('User deleted successfully (2 API keys deleted)'),
    );
    await vi.waitFor(() => expect(screen.queryByTestId('confirm-dialog')).toBeNull());
  });

  it("the edit dialog shows the user's calls this month in the words of their own pages", async () => {
    const { calls } = mockFetch({
      'GET /api/v1/admin/users': () => page([ada]),
      'GET /api/v1/admin/users/u1/stats': () =>
        json(200, {
          success: true,
          data: {
            stats: {
              requests: {
                today: 3,
                thisMonth: 12,
                total: 40,
                errors: 1,
                successRate: 97.5,
                avgResponseTime: 120,
                lastRequestAt: null,
              },
              monthCalls: { month: '2026-11', made: 12, counted: 9, notCounted: 3 },
              apiKeys: { total: 1, active: 1, custom: 0 },
              sessions: { active: 1 },
            },
          },
        }),
    });
    renderPage('owner');
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Ada King' }));
    const figures = await screen.findByTestId('user-month-calls');
    expect(figures).toHaveTextContent('Calls this month');
    expect(figures).toHaveTextContent('12 made · 9 counted against the quota · 3 not counted');
    expect(calls.some((c) => c.path === '/api/v1/admin/users/u1/stats')).toBe(true);
  });

  it('keeps the status dialog open with the server error when it fails', async () => {
    mockFetch({
      'GET /api/v1/admin/users': () => page([ada]),
      'PATCH /api/v1/admin/users/u1/status': () =>
        apiError(403, 'FORBIDDEN', 'Un admin ne peut pas agir sur un compte de rôle admin'),
    });
    renderPage('admin');
    await userEvent.click(await screen.findByRole('button', { name: 'Deactivate Ada King' }));
    expect(screen.getByTestId('confirm-dialog')).toHaveTextContent('Are you sure you want to deactivate "Ada King"?');
    await userEvent.click(within(screen.getByTestId('confirm-dialog')).getByRole('button', { name: 'Deactivate' }));
    expect(await screen.findByTestId('confirm-error')).toHaveTextContent('ne peut pas agir');
    expect(toast.error).toHaveBeenCalled();
  });

  it('creates a user and shows the temporary password once; only roles up to mine are offered', async () => {
    const { calls } = mockFetch({
      'GET /api/v1/admin/users': () => page([]),
      'POST /api/v1/admin/users': () =>
        json(201, {
          success: true,
          data: { user: adminUser({ name: 'New One', email: 'new@example.test' }), tempPassword: 'Tmp-Pass-123456789' },
        }),
    });
    renderPage('admin');
    await userEvent.click(await screen.findByRole('button', { name: /Add User/ }));
    const dialog = screen.getByTestId('user-form-dialog');
    const roleOptions = within(dialog)
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(roleOptions).toContain('Administrator');
    expect(roleOptions).not.toContain('Owner');
    await userEvent.type(within(dialog).getByLabelText('Email'), 'new@example.test');
    await userEvent.type(within(dialog).getByLabelText('Name'), 'New One');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByTestId('temp-password')).toHaveTextContent('Tmp-Pass-123456789');
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({
      email: 'new@example.test',
      name: 'New One',
      role: 'user',
    });
    expect(toast.success).toHaveBeenCalledWith('User created successfully!');
  });
});
