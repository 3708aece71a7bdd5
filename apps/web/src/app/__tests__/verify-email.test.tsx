import { act, fireEvent, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import VerifyEmailRoute from '@/app/routes/auth/verify-email';
import { useAuthStore } from '@/lib/auth/auth-store';
import { makeTokens, makeUser } from '@/testing/fixtures';
import { apiError, json, mockFetch } from '@/testing/mock-fetch';

vi.mock('@/lib/toast', () => import('@/testing/mock-toast'));

function renderAt(url: string) {
  return render(
    <QueryClientProvider client={new QueryClient()}>
      <MemoryRouter initialEntries={[url]}>
        <Routes>
          <Route path="/verify-email" element={<VerifyEmailRoute />} />
          <Route path="/dashboard" element={<p>dashboard page</p>} />
          <Route path="/login" element={<p>login page</p>} />
          <Route path="/register" element={<p>register page</p>} />
        </Routes>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

beforeEach(() => {
  localStorage.clear();
  useAuthStore.setState({ user: null, token: null, isAuthenticated: false, isLoading: false, pendingEmail: null });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

describe('/verify-email (spec-1 §2)', () => {
  it('success: counts down 5 → 0, then goes to /dashboard', async () => {
    vi.useFakeTimers();
    const f = mockFetch({
      'GET /api/v1/auth/verify-email': () =>
        json(200, { success: true, data: { user: makeUser(), tokens: makeTokens() } }),
    });
    renderAt('/verify-email?token=good-1');
    expect(screen.getByText('Verifying your email…')).toBeInTheDocument();
    await act(async () => {
      await vi.advanceTimersByTimeAsync(0);
    });
    expect(screen.getByRole('heading', { name: 'Email verified!' })).toBeInTheDocument();
    expect(screen.getByTestId('verify-countdown')).toHaveTextContent('in 5 seconds');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1000);
    });
    expect(screen.getByTestId('verify-countdown')).toHaveTextContent('in 4 seconds');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(3000);
    });
    expect(screen.getByTestId('verify-countdown')).toHaveTextContent('in 1 second…');
    await act(async () => {
      await vi.advanceTimersByTimeAsync(1000);
    });
    expect(screen.getByText('dashboard page')).toBeInTheDocument();
    expect(f.callsTo('GET /api/v1/auth/verify-email')).toHaveLength(1);
    expect(useAuthStore.getState().isAuthenticated).toBe(true);
  });

  it('success: Go to Dashboard leaves at once', async () => {
    mockFetch({
      'GET /api/v1/auth/verify-email': () =>
        json(200, { success: true, data: { user: makeUser(), tokens: makeTokens() } }),
    });
    renderAt('/verify-email?token=good-2');
    fireEvent.click(await screen.findByRole('button', { name: 'Go to Dashboard' }));
    expect(screen.getByText('dashboard page')).toBeInTheDocument();
  });

  it('error: shows the message and the static text; Try Again verifies again; Back to Login', async () => {
    const f = mockFetch({
      'GET /api/v1/auth/verify-email': [
        () => apiError(400, 'LINK_EXPIRED', 'This verification link has expired'),
        () => json(400, {}),
      ],
    });
    renderAt('/verify-email?token=bad-1');
    expect(await screen.findByTestId('verify-error')).toHaveTextContent('This verification link has expired');
    expect(screen.getByText(/expired or is invalid/)).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByTestId('verify-error')).toBeInTheDocument();
    expect(f.callsTo('GET /api/v1/auth/verify-email')).toHaveLength(2);
    fireEvent.click(screen.getByRole('button', { name: 'Back to Login' }));
    expect(screen.getByText('login page')).toBeInTheDocument();
  });

  it('no token: the two spec messages and the two buttons', () => {
    const f = mockFetch({});
    renderAt('/verify-email');
    expect(
      screen.getByText(
        'The verification link is invalid or missing. Please check your email or request a new verification link.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('Make sure to click the complete link received in your email.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'I Already Have an Account' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Create New Account' }));
    expect(screen.getByText('register page')).toBeInTheDocument();
    expect(f.calls).toHaveLength(0);
  });
});
