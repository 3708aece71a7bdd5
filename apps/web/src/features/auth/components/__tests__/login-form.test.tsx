import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LoginForm } from '@/features/auth/components/login-form';
import { useAuthStore } from '@/lib/auth/auth-store';
import { makeTokens, makeUser } from '@/testing/fixtures';
import { apiError, json, mockFetch } from '@/testing/mock-fetch';
import { renderWithProviders } from '@/testing/test-utils';

vi.mock('@/lib/toast', () => import('@/testing/mock-toast'));

beforeEach(() => {
  localStorage.clear();
  useAuthStore.setState({ user: null, token: null, isAuthenticated: false, isLoading: false, pendingEmail: null });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

async function submit(user: ReturnType<typeof renderWithProviders>['user'], email: string, password: string) {
  if (email) await user.type(screen.getByLabelText('Email address'), email);
  if (password) await user.type(screen.getByLabelText('Password', { selector: 'input' }), password);
  await user.click(screen.getByRole('button', { name: 'Sign In' }));
}

describe('LoginForm', () => {
  it('requires an e-mail and a password', async () => {
    const f = mockFetch({});
    const { user } = renderWithProviders(<LoginForm />);
    await submit(user, '', '');
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(f.calls).toHaveLength(0);
  });

  it("shows the server's error field on failure", async () => {
    mockFetch({ 'POST /api/v1/auth/login': () => apiError(401, 'INVALID_CREDENTIALS', 'Invalid email or password') });
    const { user } = renderWithProviders(<LoginForm />);
    await submit(user, 'ada@example.com', 'wrong');
    expect(await screen.findByTestId('login-error')).toHaveTextContent('Invalid email or password');
    expect(useAuthStore.getState().isAuthenticated).toBe(false);
  });

  it("falls back to 'Incorrect email or password' when the server says nothing", async () => {
    mockFetch({ 'POST /api/v1/auth/login': () => json(401, {}) });
    const { user } = renderWithProviders(<LoginForm />);
    await submit(user, 'ada@example.com', 'wrong');
    expect(await screen.findByTestId('login-error')).toHaveTextContent('Incorrect email or password');
  });

  it('offers to resend the verification mail when the address is not verified', async () => {
    mockFetch({
      'POST /api/v1/auth/login': () => apiError(403, 'EMAIL_NOT_VERIFIED', 'Please verify your email address first'),
    });
    const { user } = renderWithProviders(<LoginForm />, {
      path: '/login',
      routes: { '/check-email': <p>check email page</p> },
    });
    await submit(user, 'ada@example.com', 'Sunny-Kettle-42!');
    await user.click(await screen.findByRole('button', { name: 'Resend the verification email' }));
    expect(await screen.findByText('check email page')).toBeInTheDocument();
    expect(useAuthStore.getState().pendingEmail).toBe('ada@example.com');
  });

  it('signs in with Remember me', async () => {
    const f = mockFetch({
      'POST /api/v1/auth/login': () => json(200, { success: true, data: { user: makeUser(), tokens: makeTokens() } }),
    });
    const onSuccess = vi.fn();
    const { user } = renderWithProviders(<LoginForm onSuccess={onSuccess} />);
    await user.click(screen.getByRole('checkbox', { name: 'Remember me' }));
    await submit(user, 'ada@example.com', 'Sunny-Kettle-42!');
    await vi.waitFor(() => expect(onSuccess).toHaveBeenCalled());
    expect(f.calls[0]!.body).toEqual({ email: 'ada@example.com', password: 'Sunny-Kettle-42!', rememberMe: true });
    expect(useAuthStore.getState().isAuthenticated).toBe(true);
  });

  it('links to the forgot-password page and to sign-up', () => {
    mockFetch({});
    renderWithProviders(<LoginForm />);
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute('href', '/forgot-password');
    expect(screen.getByRole('link', { name: 'Create one for free' })).toHaveAttribute('href', '/register');
  });
});
