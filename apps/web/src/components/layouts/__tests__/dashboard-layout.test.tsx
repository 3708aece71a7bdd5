import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { TUserRole } from '@docflow/contracts';
import { DashboardLayout } from '@/components/layouts/dashboard-layout';
import { useAuthStore } from '@/lib/auth/auth-store';
import { makeUser } from '@/testing/fixtures';
import { mockFetch } from '@/testing/mock-fetch';
import { renderWithProviders } from '@/testing/test-utils';

afterEach(() => useAuthStore.setState({ user: null, token: null, isAuthenticated: false }));

const signedIn = (plan: string, role: TUserRole = 'user') =>
  useAuthStore.setState({ user: makeUser({ plan, role }), token: 't', isAuthenticated: true, isLoading: false });

describe('DashboardLayout: the upgrade box', () => {
  it('asks a Free or Pro user to upgrade', () => {
    mockFetch({});
    for (const plan of ['free', 'pro']) {
      signedIn(plan);
      const { unmount } = renderWithProviders(<DashboardLayout>content</DashboardLayout>);
      expect(screen.getAllByText('Need more requests?').length, plan).toBeGreaterThan(0);
      unmount();
    }
  });

  it('does not ask an administrator or the owner, who grant plans themselves', () => {
    mockFetch({});
    for (const role of ['admin', 'super_admin', 'owner'] as const) {
      signedIn('free', role);
      const { unmount } = renderWithProviders(<DashboardLayout>content</DashboardLayout>);
      expect(screen.getByText('content')).toBeInTheDocument();
      expect(screen.queryByText('Need more requests?'), role).toBeNull();
      unmount();
    }
  });

  it('does not ask an Enterprise user, who has nothing to upgrade to', () => {
    mockFetch({});
    signedIn('enterprise');
    renderWithProviders(<DashboardLayout>content</DashboardLayout>);
    expect(screen.getByText('content')).toBeInTheDocument();
    expect(screen.queryByText('Need more requests?')).toBeNull();
  });
});
