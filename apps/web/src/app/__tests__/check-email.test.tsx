import { act, fireEvent, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import CheckEmailRoute from '@/app/routes/auth/check-email';
import { useAuthStore } from '@/lib/auth/auth-store';
import { toast } from '@/lib/toast';
import { json, mockFetch } from '@/testing/mock-fetch';

vi.mock('@/lib/toast', () => import('@/testing/mock-toast'));

function renderPage() {
  return render(
    <MemoryRouter initialEntries={['/check-email']}>
      <Routes>
        <Route path="/check-email" element={<CheckEmailRoute />} />
      </Routes>
    </MemoryRouter>,
  );
}

/** The server's answer to a resend within the minute: 429 with the wait in details.retryAfter (and Retry-After). */
const rateLimited = (seconds: number) =>
  json(429, {
    success: false,
    code: 'RATE_LIMIT_EXCEEDED',
    error: 'A verification email was just sent to this address: wait before asking again',
    details: { retryAfter: seconds },
  });

beforeEach(() => {
  useAuthStore.setState({ user: null, token: null, isAuthenticated: false, isLoading: false, pendingEmail: null });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

describe('/check-email', () => {
  it('asks for the address without an error before anything was typed; the error comes on submit or blur', async () => {
    mockFetch({});
    renderPage();
    const field = screen.getByLabelText('Your email address');
    expect(screen.queryByText('Email is required')).toBeNull();
    fireEvent.blur(field);
    expect(screen.queryByText('Email is required')).toBeNull();
    fireEvent.change(field, { target: { value: 'not-an-address' } });
    fireEvent.blur(field);
    expect(await screen.findByText('Please enter a valid email address')).toBeInTheDocument();
    fireEvent.change(field, { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Resend Verification Email' }));
    expect(await screen.findByText('Email is required')).toBeInTheDocument();
  });

  it("counts down the server's wait after a resend refused as too soon, then offers it again", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const f = mockFetch({ 'POST /api/v1/auth/resend-verification': () => rateLimited(42) });
    useAuthStore.setState({ pendingEmail: 'ada@example.com' });
    renderPage();
    fireEvent.click(screen.getByRole('button', { name: 'Resend Verification Email' }));
    await act(() => vi.advanceTimersByTimeAsync(2000));
    const waitNote = await screen.findByTestId('resend-wait');
    expect(waitNote).toHaveTextContent(/You can ask for another in 4[0-2] seconds/);
    expect(screen.getByRole('button', { name: 'Resend Verification Email' })).toBeDisabled();
    expect(toast.success).not.toHaveBeenCalled();
    expect(toast.error).not.toHaveBeenCalled();
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(screen.getByTestId('resend-wait')).toHaveTextContent(/in 3[0-2] seconds/);
    await act(() => vi.advanceTimersByTimeAsync(35_000));
    expect(screen.queryByTestId('resend-wait')).toBeNull();
    expect(screen.getByRole('button', { name: 'Resend Verification Email' })).toBeEnabled();
    expect(f.calls).toHaveLength(1);
  });
});
