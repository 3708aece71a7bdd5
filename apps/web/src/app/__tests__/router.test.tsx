import { configure, render, screen, waitFor, within } from '@testing-library/react';
import { QueryClientProvider } from '@tanstack/react-query';
// RouterProvider from 'react-router' itself: under vitest 'react-router/dom' can resolve to another copy of the
// package (dual ESM/CJS build), whose contexts the route components would not see.
import { RouterProvider, createMemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { TUserRole } from '@docflow/contracts';
import { routes } from '@/app/router';
import { queryClient } from '@/lib/react-query';
import { useAuthStore } from '@/lib/auth/auth-store';
import { makeUser } from '@/testing/fixtures';
import { json, mockFetch } from '@/testing/mock-fetch';

// Route modules load lazily: the first import of a page is transformed on the fly and can take a moment.
configure({ asyncUtilTimeout: 8000 });

vi.mock('@/lib/toast', () => import('@/testing/mock-toast'));

function go(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

const signIn = (role: TUserRole = 'user') =>
  useAuthStore.setState({ user: makeUser({ role }), token: 'access-1', isAuthenticated: true });

beforeEach(() => {
  localStorage.clear();
  queryClient.clear();
  useAuthStore.setState({ user: null, token: null, isAuthenticated: false, isLoading: false, pendingEmail: null });
  mockFetch({
    'GET /api/v1/notifications': () =>
      json(200, {
        success: true,
        data: {
          notifications: [
            {
              id: 'n1',
              type: 'info',
              title: 'Welcome',
              message: 'Hello',
              timestamp: new Date().toISOString(),
              read: false,
            },
          ],
          unreadCount: 1,
        },
      }),
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

const path = (router: ReturnType<typeof go>) => router.state.location.pathname;

describe('route gates (spec-1 §2)', () => {
  it.each(['/dashboard', '/keys', '/settings', '/admin/users', '/admin/monitor'])(
    'visitor at %s → /login',
    async (p) => {
      const router = go(p);
      expect(await screen.findByRole('button', { name: 'Sign In' })).toBeInTheDocument();
      expect(path(router)).toBe('/login');
    },
  );

  it('visitor at an unknown path → /', async () => {
    const router = go('/nowhere/at/all');
    expect(await screen.findByRole('heading', { level: 1, name: /document API/ })).toBeInTheDocument();
    expect(path(router)).toBe('/');
  });

  it.each(['/', '/login', '/register', '/nowhere'])('signed-in user at %s → /dashboard', async (p) => {
    signIn('user');
    const router = go(p);
    expect(await screen.findByTestId('shell-title')).toHaveTextContent('Dashboard');
    expect(path(router)).toBe('/dashboard');
  });

  it.each<[TUserRole, string]>([
    ['admin', 'admin'],
    ['super_admin', 'super admin'],
    ['owner', 'owner'],
  ])('%s reaches the admin pages under the title Admin Dashboard', async (role, label) => {
    signIn(role);
    const router = go('/admin/monitor');
    expect(await screen.findByTestId('shell-title')).toHaveTextContent('Admin Dashboard');
    expect(screen.getByTestId('role-label')).toHaveTextContent(label);
    expect(path(router)).toBe('/admin/monitor');
    const nav = screen.getAllByRole('navigation', { name: 'Main' })[0]!;
    for (const name of ['Users', 'System Monitor', 'Plan Management', 'Audit Log'])
      expect(within(nav).getByRole('link', { name })).toBeInTheDocument();
  });

  it('a user with a temporary password lands on /change-password from any page, and nowhere else', async () => {
    useAuthStore.setState({ user: makeUser({ mustChangePassword: true }), token: 'access-1', isAuthenticated: true });
    const router = go('/keys');
    expect(await screen.findByTestId('temporary-password-notice')).toBeInTheDocument();
    expect(path(router)).toBe('/change-password');
    expect(screen.getByRole('form', { name: 'Change password' })).toBeInTheDocument();
  });

  it('/change-password without a temporary password → /dashboard', async () => {
    signIn('user');
    const router = go('/change-password');
    await screen.findByTestId('shell-title');
    expect(path(router)).toBe('/dashboard');
  });

  it('/admin/settings moved to /admin/plans', async () => {
    signIn('owner');
    const router = go('/admin/settings');
    await screen.findByTestId('shell-title');
    await waitFor(() => expect(path(router)).toBe('/admin/plans'));
  });

  it('the plain user sidebar: the eight entries, API Docs in a new tab, no admin entries', async () => {
    signIn('user');
    go('/settings');
    await screen.findByTestId('shell-title');
    const nav = screen.getAllByRole('navigation', { name: 'Main' })[0]!;
    for (const name of ['Dashboard', 'API Keys', 'Analytics', 'Playground', 'Plans', 'Settings', 'Support', /API Docs/])
      expect(within(nav).getByRole('link', { name })).toBeInTheDocument();
    expect(within(nav).getByRole('link', { name: /API Docs/ })).toHaveAttribute('target', '_blank');
    expect(within(nav).queryByRole('link', { name: 'Users' })).not.toBeInTheDocument();
    // The bell shows the unread count fetched at start-up.
    expect(await screen.findByTestId('notifications-badge')).toHaveTextContent('1');
  });

  it('public pages stay reachable for everyone', async () => {
    signIn('user');
    const router = go('/support');
    expect(await screen.findByRole('heading', { name: 'How can we help?' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Open Playground' })).toHaveAttribute('href', '/playground');
    expect(path(router)).toBe('/support');
  });

  it("support for a visitor: 'Sign In Required' to /login", async () => {
    go('/support');
    expect(await screen.findByRole('link', { name: /Sign In Required/ })).toHaveAttribute('href', '/login');
  });
});
