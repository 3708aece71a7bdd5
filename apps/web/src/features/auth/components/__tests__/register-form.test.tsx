import { screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RegisterForm } from '@/features/auth/components/register-form';
import { useAuthStore } from '@/lib/auth/auth-store';
import { makeUser } from '@/testing/fixtures';
import { apiError, json, mockFetch } from '@/testing/mock-fetch';
import { renderWithProviders } from '@/testing/test-utils';

vi.mock('@/lib/toast', () => import('@/testing/mock-toast'));

const validation = {
  isValid: true,
  score: 3,
  strength: 'strong',
  feedback: ['Add another word or two.'],
  requirements: {
    minLength: true,
    lowercase: true,
    uppercase: true,
    number: true,
    special: false,
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

async function fill(
  user: ReturnType<typeof renderWithProviders>['user'],
  v: { name?: string; email?: string; password?: string; confirm?: string; terms?: boolean },
) {
  if (v.name) await user.type(screen.getByLabelText('Full name'), v.name);
  if (v.email) await user.type(screen.getByLabelText('Email address'), v.email);
  if (v.password) await user.type(screen.getByLabelText('Password', { selector: 'input' }), v.password);
  if (v.confirm) await user.type(screen.getByLabelText('Confirm password', { selector: 'input' }), v.confirm);
  if (v.terms) await user.click(screen.getByRole('checkbox', { name: /I agree/ }));
}

describe('RegisterForm', () => {
  it('links the Terms of Service and the Privacy Policy to their own pages', () => {
    mockFetch({});
    renderWithProviders(<RegisterForm />);
    expect(screen.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', '/terms');
    expect(screen.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/privacy');
  });

  it('shows the required-field messages and the terms message, and sends nothing', async () => {
    const f = mockFetch({});
    const { user } = renderWithProviders(<RegisterForm />);
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(screen.getByText('Full name is required')).toBeInTheDocument();
    expect(screen.getByText('Email is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(screen.getByText('Please accept the terms and conditions')).toBeInTheDocument();
    expect(screen.getByLabelText('Full name')).toHaveAttribute('aria-invalid', 'true');
    expect(f.callsTo('POST /api/v1/auth/register')).toHaveLength(0);
  });

  it("says 'Passwords do not match' and 'Please accept the terms and conditions' (spec-1 §5)", async () => {
    const f = mockFetch({
      'POST /api/v1/auth/validate-password': () => json(200, { success: true, data: { validation } }),
    });
    const { user } = renderWithProviders(<RegisterForm />);
    await fill(user, {
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      password: 'Sunny-Kettle-42!',
      confirm: 'Sunny-Kettle-43!',
    });
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(screen.getByText('Passwords do not match')).toBeInTheDocument();
    expect(screen.getByText('Please accept the terms and conditions')).toBeInTheDocument();
    expect(screen.queryByText('Full name is required')).not.toBeInTheDocument();
    expect(f.callsTo('POST /api/v1/auth/register')).toHaveLength(0);
  });

  it('rejects a malformed e-mail', async () => {
    mockFetch({ 'POST /api/v1/auth/validate-password': () => json(200, { success: true, data: { validation } }) });
    const { user } = renderWithProviders(<RegisterForm />);
    await fill(user, { name: 'Ada', email: 'not-an-email', password: 'x', confirm: 'x', terms: true });
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(screen.getByText('Please enter a valid email address')).toBeInTheDocument();
  });

  it('shows the live strength meter from POST /auth/validate-password (debounced)', async () => {
    const f = mockFetch({
      'POST /api/v1/auth/validate-password': () => json(200, { success: true, data: { validation } }),
    });
    const { user } = renderWithProviders(<RegisterForm />);
    await user.type(screen.getByLabelText('Full name'), 'Ada');
    await user.type(screen.getByLabelText('Password', { selector: 'input' }), 'Sunny-Kettle-42!');
    expect(await screen.findByText('Strong (3/4)')).toBeInTheDocument();
    expect(screen.getByText('Add another word or two.')).toBeInTheDocument();
    // Debounced: one call for the whole word, not one per key.
    const calls = f.callsTo('POST /api/v1/auth/validate-password');
    expect(calls).toHaveLength(1);
    expect(calls[0]!.body).toMatchObject({ password: 'Sunny-Kettle-42!', name: 'Ada' });
  });

  it('registers and reports that verification is needed when no tokens come back', async () => {
    const f = mockFetch({
      'POST /api/v1/auth/validate-password': () => json(200, { success: true, data: { validation } }),
      'POST /api/v1/auth/register': () =>
        json(201, { success: true, data: { user: makeUser({ emailVerified: false }) } }),
    });
    const onSuccess = vi.fn();
    const { user } = renderWithProviders(<RegisterForm onSuccess={onSuccess} />);
    await fill(user, {
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      password: 'Sunny-Kettle-42!',
      confirm: 'Sunny-Kettle-42!',
      terms: true,
    });
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    await waitFor(() =>
      expect(onSuccess).toHaveBeenCalledWith({ verificationRequired: true, email: 'ada@example.com' }),
    );
    expect(f.callsTo('POST /api/v1/auth/register')[0]!.body).toEqual({
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      password: 'Sunny-Kettle-42!',
      confirmPassword: 'Sunny-Kettle-42!',
      acceptTerms: true,
    });
  });

  it("shows the server's error field on failure", async () => {
    mockFetch({
      'POST /api/v1/auth/validate-password': () => json(200, { success: true, data: { validation } }),
      'POST /api/v1/auth/register': () => apiError(409, 'EMAIL_TAKEN', 'An account already exists for this email'),
    });
    const { user } = renderWithProviders(<RegisterForm />);
    await fill(user, {
      name: 'Ada Lovelace',
      email: 'ada@example.com',
      password: 'Sunny-Kettle-42!',
      confirm: 'Sunny-Kettle-42!',
      terms: true,
    });
    await user.click(screen.getByRole('button', { name: 'Create Account' }));
    expect(await screen.findByTestId('register-error')).toHaveTextContent('An account already exists for this email');
  });

  it('toggles password visibility', async () => {
    mockFetch({});
    const { user } = renderWithProviders(<RegisterForm />);
    const input = screen.getByLabelText('Password', { selector: 'input' });
    expect(input).toHaveAttribute('type', 'password');
    await user.click(screen.getAllByRole('button', { name: 'Show password' })[0]!);
    expect(input).toHaveAttribute('type', 'text');
  });
});
