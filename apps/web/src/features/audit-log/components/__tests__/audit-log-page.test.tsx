import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useAuthStore } from '@/lib/auth/auth-store';
import { makeUser } from '@/testing/fixtures';
import { json, mockFetch } from '@/testing/mock-fetch';
import { renderWithProviders } from '@/testing/test-utils';
import { AuditLogPage } from '../audit-log-page';

function renderPage(role: 'user' | 'admin') {
  useAuthStore.setState({ user: makeUser({ role }), isAuthenticated: true, token: 't' });
  renderWithProviders(<AuditLogPage />);
}

describe('AuditLogPage', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('plain users see Accès refusé and nothing is fetched', () => {
    const { calls } = mockFetch({});
    renderPage('user');
    expect(screen.getByTestId('audit-restricted')).toHaveTextContent('Access denied');
    expect(calls).toHaveLength(0);
  });

  it('shows who did what on whom, from where, and asks for sign-ins too on request', async () => {
    const { calls } = mockFetch({
      'GET /api/v1/admin/audit-log': () =>
        json(200, {
          success: true,
          data: {
            entries: [
              {
                id: 'a1',
                at: '2026-11-25T01:00:00Z',
                action: 'admin.user.update',
                actor: { id: 'u0', email: 'root@example.test', name: 'Root' },
                target: { type: 'user', id: 'u1', label: 'ada@example.test' },
                ip: '203.0.113.9',
                details: { company: { from: null, to: 'Acme' } },
              },
            ],
            pagination: { page: 1, limit: 50, total: 1, totalPages: 1 },
          },
        }),
    });
    renderPage('admin');
    const row = await screen.findByTestId('audit-row');
    expect(within(row).getByText('root@example.test')).toBeInTheDocument();
    expect(within(row).getByText('admin.user.update')).toBeInTheDocument();
    expect(within(row).getByText('user: ada@example.test')).toBeInTheDocument();
    expect(within(row).getByText('203.0.113.9')).toBeInTheDocument();
    expect(row).toHaveTextContent('company: null → "Acme"');
    expect(calls[0]!.url).toContain('adminOnly=true');
    await userEvent.click(screen.getByRole('checkbox', { name: /Sign-ins/ }));
    await vi.waitFor(() => expect(calls.at(-1)!.url).toContain('adminOnly=false'));
  });

  it('shows a refused action in its own colour, with the code and the reason', async () => {
    mockFetch({
      'GET /api/v1/admin/audit-log': () =>
        json(200, {
          success: true,
          data: {
            entries: [
              {
                id: 'r1',
                at: '2026-11-25T01:00:00Z',
                action: 'admin.test_service.refused',
                actor: { id: 'u0', email: 'admin@example.test', name: 'Admin' },
                target: { type: 'system', id: 'http://169.254.169.254/latest/meta-data/', label: null },
                ip: '203.0.113.9',
                details: {
                  outcome: 'refused',
                  status: 403,
                  code: 'URL_NOT_ALLOWED',
                  reason: 'url: 169.254.169.254 is not a public address',
                },
              },
            ],
            pagination: { page: 1, limit: 50, total: 1, totalPages: 1 },
          },
        }),
    });
    renderPage('admin');
    const row = await screen.findByTestId('audit-row');
    const badge = within(row).getByText('admin.test_service.refused');
    expect(badge.className).toContain('bg-rose-50');
    expect(within(row).getByText('system: http://169.254.169.254/latest/meta-data/')).toBeInTheDocument();
    expect(row).toHaveTextContent('code: "URL_NOT_ALLOWED"');
    expect(row).toHaveTextContent('reason: "url: 169.254.169.254 is not a public address"');
  });
});
