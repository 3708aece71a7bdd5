import { screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ResetPasswordForm } from '@/features/auth/components/reset-password-form';
import { ForgotPasswordForm } from '@/features/auth/components/forgot-password-form';
import { useAuthStore } from '@/lib/auth/auth-store';
import { toast } from '@/lib/toast';
import { makeTokens, makeUser } from '@/testing/fixtures';
import { apiError, json, mockFetch } from '@/testing/mock-fetch';
import { renderWithProviders } from '@/testing/test-utils';

vi.mock('@/lib/toast', () => import('@/testing/mock-toast'));

const validation = {
  isValid: true,
  score: 4,
  strength: 'very_strong',
  feedback: [],
  requirements: {
    minLength: true,
    lowercase: true,
    uppercase: true,
    number: true,
    special: true,
    notCommon: true,
    notPersonal: true,
  },
};

beforeEach(() => {
  localStorage.clear();
  useAuthStore.setState({ user: null, token: null, isAuthenticated: false, isLoading: false, pendingEmail: null });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

describe('ResetPasswordForm', () => {
  it('requires a password and a matching confirmation', async () => {
    const f = mockFetch({
      'POST /api/v1/auth/validate-password': () => json(200, { success: true, data: { validation } }),
    });
    const { user } = renderWithProviders(<ResetPasswordForm token="t" />);
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    await user.type(screen.getByLabelText('New password', { selector: 'input' }), 'Brave-Walrus-77?');
    await user.type(screen.getByLabelText('Confirm new password', { selector: 'input' }), 'Brave-Walrus-78?');
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(screen.getByText('Passwords do not match')).toBeInTheDocument();
    expect(f.callsTo('POST /api/v1/auth/reset-password')).toHaveLength(0);
  });

  it('resets, signs in and calls back', async () => {
    const f = mockFetch({
      'POST /api/v1/auth/validate-password': () => json(200, { success: true, data: { validation } }),
      'POST /api/v1/auth/reset-password': () =>
        json(200, { success: true, data: { user: makeUser(), tokens: makeTokens('access-r') } }),
    });
    const onSuccess = vi.fn();
    const { user } = renderWithProviders(<ResetPasswordForm token="tok" onSuccess={onSuccess} />);
    await user.type(screen.getByLabelText('New password', { selector: 'input' }), 'Brave-Walrus-77?');
    await user.type(screen.getByLabelText('Confirm new password', { selector: 'input' }), 'Brave-Walrus-77?');
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    await vi.waitFor(() => expect(onSuccess).toHaveBeenCalled());
    expect(f.callsTo('POST /api/v1/auth/reset-password')[0]!.body).toEqual({
      token: 'tok',
      password: 'Brave-Walrus-77?',
      confirmPassword: 'Brave-Walrus-77?',
    });
    expect(useAuthStore.getState()).toMatchObject({ isAuthenticated: true, token: 'access-r' });
    expect(toast.success).toHaveBeenCalledWith('Password reset successfully');
  });

  it("shows the server's message for an expired link", async () => {
    mockFetch({
      'POST /api/v1/auth/validate-password': () => json(200, { success: true, data: { validation } }),
      'POST /api/v1/auth/reset-password': () => apiError(400, 'LINK_EXPIRED', 'This reset link has expired'),
    });
    const { user } = renderWithProviders(<ResetPasswordForm token="tok" />);
    await user.type(screen.getByLabelText('New password', { selector: 'input' }), 'Brave-Walrus-77?');
    await user.type(screen.getByLabelText('Confirm new password', { selector: 'input' }), 'Brave-Walrus-77?');
    await user.click(screen.getByRole('button', { name: 'Reset password' }));
    expect(await screen.findByTestId('reset-error')).toHaveTextContent('This reset link has expired');
  });
});

describe('ForgotPasswordForm', () => {
  it('validates the e-mail, sends it and confirms', async () => {
    const f = mockFetch({ 'POST /api/v1/auth/forgot-password': () => json(200, { success: true, message: 'ok' }) });
    const { user } = renderWithProviders(<ForgotPasswordForm />);
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Email address'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(await screen.findByTestId('forgot-password-sent')).toHaveTextContent('ada@example.com');
    expect(f.calls[0]!.body).toEqual({ email: 'ada@example.com' });
    expect(toast.success).toHaveBeenCalledWith('Reset email sent');
  });
});
