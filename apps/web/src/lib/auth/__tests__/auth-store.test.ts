import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { messages } from '@/config/messages';
import { toast } from '@/lib/toast';
import { useAuthStore } from '@/lib/auth/auth-store';
import { makeTokens, makeUser } from '@/testing/fixtures';
import { apiError, json, mockFetch } from '@/testing/mock-fetch';

vi.mock('@/lib/toast', () => import('@/testing/mock-toast'));

const user = makeUser();
const signedIn = (accessToken = 'access-1', u = user) =>
  json(200, { success: true, data: { user: u, tokens: makeTokens(accessToken) } });
const initial = useAuthStore.getState();

beforeEach(() => {
  localStorage.clear();
  useAuthStore.setState(
    { ...initial, user: null, token: null, isAuthenticated: false, isLoading: false, pendingEmail: null },
    true,
  );
});
afterEach(() => {
  vi.clearAllMocks();
  vi.unstubAllGlobals();
});

const persisted = () => JSON.parse(localStorage.getItem('auth-store') ?? 'null')?.state;

describe('auth store (spec-1 §4)', () => {
  it('login: sets user and token, marks authenticated, toasts, persists only isAuthenticated/user', async () => {
    const f = mockFetch({ 'POST /api/v1/auth/login': () => signedIn('access-1') });
    const promise = useAuthStore.getState().login({ email: 'ada@example.com', password: 'pw', rememberMe: true });
    expect(useAuthStore.getState().isLoading).toBe(true);
    await promise;
    const s = useAuthStore.getState();
    expect(s).toMatchObject({ user, token: 'access-1', isAuthenticated: true, isLoading: false });
    expect(toast.success).toHaveBeenCalledWith('Signed in successfully!');
    expect(f.calls[0]!.body).toEqual({ email: 'ada@example.com', password: 'pw', rememberMe: true });
    expect(persisted()).toEqual({ isAuthenticated: true, user });
    // The access token stays in memory, the refresh token in the httpOnly cookie: neither in local storage.
    expect(JSON.stringify(localStorage)).not.toContain('access-1');
    expect(localStorage.getItem('refresh_token')).toBeNull();
    expect(JSON.stringify(localStorage)).not.toContain('refresh-in-cookie');
  });

  it("login failure: throws the server's message, else 'Login failed'; stays signed out", async () => {
    mockFetch({
      'POST /api/v1/auth/login': [
        () => apiError(401, 'INVALID_CREDENTIALS', 'Invalid email or password'),
        () => json(401, {}),
      ],
    });
    await expect(useAuthStore.getState().login({ email: 'a@b.co', password: 'x' })).rejects.toMatchObject({
      message: 'Invalid email or password',
    });
    await expect(useAuthStore.getState().login({ email: 'a@b.co', password: 'x' })).rejects.toMatchObject({
      message: messages.service.loginFailed,
    });
    expect(useAuthStore.getState()).toMatchObject({ isAuthenticated: false, token: null, isLoading: false });
    expect(toast.success).not.toHaveBeenCalled();
    expect(toast.error).not.toHaveBeenCalled();
  });

  it('register without tokens: awaits verification, remembers the e-mail, toasts the verify message', async () => {
    mockFetch({
      'POST /api/v1/auth/register': () => json(201, { success: true, message: 'Check your email', data: {} }),
    });
    const r = await useAuthStore.getState().register({
      name: 'Ada',
      email: 'ada@example.com',
      password: 'pw',
      confirmPassword: 'pw',
      acceptTerms: true,
    });
    expect(r.verificationRequired).toBe(true);
    expect(useAuthStore.getState()).toMatchObject({
      isAuthenticated: false,
      token: null,
      pendingEmail: 'ada@example.com',
    });
    expect(toast.success).toHaveBeenCalledWith('Account created! Check your email to activate it.');
  });

  it("register with tokens: signs in with 'Account created successfully!'", async () => {
    mockFetch({ 'POST /api/v1/auth/register': () => signedIn('access-reg') });
    const r = await useAuthStore
      .getState()
      .register({ name: 'Ada', email: 'ada@example.com', password: 'pw', confirmPassword: 'pw', acceptTerms: true });
    expect(r.verificationRequired).toBe(false);
    expect(useAuthStore.getState()).toMatchObject({ isAuthenticated: true, token: 'access-reg', user });
    expect(toast.success).toHaveBeenCalledWith('Account created successfully!');
  });

  it("register failure: the server's message, else 'Registration failed'", async () => {
    mockFetch({
      'POST /api/v1/auth/register': [
        () => apiError(409, 'EMAIL_TAKEN', 'This email is already registered'),
        () => json(500, {}),
      ],
    });
    const input = { name: 'Ada', email: 'ada@example.com', password: 'pw', confirmPassword: 'pw', acceptTerms: true };
    await expect(useAuthStore.getState().register(input)).rejects.toMatchObject({
      message: 'This email is already registered',
    });
    await expect(useAuthStore.getState().register(input)).rejects.toMatchObject({
      message: messages.service.registrationFailed,
    });
  });

  it('logout: calls the server, then always clears the session and toasts — even when the call fails', async () => {
    useAuthStore.setState({ user, token: 'access-1', isAuthenticated: true });
    const f = mockFetch({ 'POST /api/v1/auth/logout': () => apiError(500, 'INTERNAL_ERROR', 'boom') });
    await useAuthStore.getState().logout();
    expect(f.callsTo('POST /api/v1/auth/logout')).toHaveLength(1);
    expect(f.calls[0]!.credentials).toBe('include');
    expect(f.calls[0]!.headers.authorization).toBe('Bearer access-1');
    expect(f.calls[0]!.body).toEqual({});
    expect(useAuthStore.getState()).toMatchObject({ user: null, token: null, isAuthenticated: false });
    expect(toast.success).toHaveBeenCalledWith('Signed out successfully');
    expect(toast.error).not.toHaveBeenCalled();
    expect(persisted()).toEqual({ isAuthenticated: false, user: null });
  });

  it('refresh: replaces the access token; a failure logs out', async () => {
    useAuthStore.setState({ user, token: 'access-old', isAuthenticated: true });
    mockFetch({
      'POST /api/v1/auth/refresh': [
        () => json(200, { success: true, data: { tokens: makeTokens('access-new') } }),
        () => apiError(401, 'INVALID_TOKEN', 'revoked'),
      ],
    });
    await expect(useAuthStore.getState().refresh()).resolves.toBe(true);
    expect(useAuthStore.getState().token).toBe('access-new');
    await expect(useAuthStore.getState().refresh()).resolves.toBe(false);
    expect(useAuthStore.getState()).toMatchObject({ user: null, token: null, isAuthenticated: false });
  });

  it('verifyEmail with tokens: signs in and toasts', async () => {
    const f = mockFetch({ 'GET /api/v1/auth/verify-email': () => signedIn('access-v') });
    await useAuthStore.getState().verifyEmail('tok en');
    expect(f.calls[0]!.url).toBe('/api/v1/auth/verify-email?token=tok+en');
    expect(useAuthStore.getState()).toMatchObject({ isAuthenticated: true, token: 'access-v', user });
    expect(toast.success).toHaveBeenCalledWith('Email verified successfully');
  });

  it('verifyEmail without tokens: flips emailVerified on the current user', async () => {
    useAuthStore.setState({
      user: makeUser({ emailVerified: false, emailVerifiedAt: null }),
      token: 'access-1',
      isAuthenticated: true,
    });
    mockFetch({ 'GET /api/v1/auth/verify-email': () => json(200, { success: true, data: { user } }) });
    await useAuthStore.getState().verifyEmail('t');
    expect(useAuthStore.getState().user?.emailVerified).toBe(true);
    expect(useAuthStore.getState().token).toBe('access-1');
  });

  it('verifyEmail failure: throws and stays signed out', async () => {
    mockFetch({
      'GET /api/v1/auth/verify-email': () => apiError(400, 'LINK_EXPIRED', 'This verification link has expired'),
    });
    await expect(useAuthStore.getState().verifyEmail('t')).rejects.toMatchObject({
      message: 'This verification link has expired',
    });
    expect(useAuthStore.getState().isAuthenticated).toBe(false);
    expect(toast.error).not.toHaveBeenCalled();
  });

  it('resetPassword: signs in with the returned tokens', async () => {
    const f = mockFetch({ 'POST /api/v1/auth/reset-password': () => signedIn('access-r') });
    await useAuthStore.getState().resetPassword({ token: 't', password: 'P', confirmPassword: 'P' });
    expect(f.calls[0]!.body).toEqual({ token: 't', password: 'P', confirmPassword: 'P' });
    expect(useAuthStore.getState()).toMatchObject({ isAuthenticated: true, token: 'access-r' });
    expect(toast.success).toHaveBeenCalledWith('Password reset successfully');
  });

  it('resend verification and forgot password: their toasts, and the store fallbacks on failure', async () => {
    mockFetch({
      'POST /api/v1/auth/resend-verification': [() => json(200, { success: true, message: 'ok' }), () => json(500, {})],
      'POST /api/v1/auth/forgot-password': [() => json(200, { success: true, message: 'ok' }), () => json(502, {})],
    });
    await useAuthStore.getState().resendVerification('a@b.co');
    expect(toast.success).toHaveBeenCalledWith('Verification email sent again');
    await useAuthStore.getState().forgotPassword('a@b.co');
    expect(toast.success).toHaveBeenCalledWith('Reset email sent');
    await expect(useAuthStore.getState().resendVerification('a@b.co')).rejects.toBeTruthy();
    await expect(useAuthStore.getState().forgotPassword('a@b.co')).rejects.toBeTruthy();
    // No server text: the client's status text (500) or the fallback (502), as the store shows them.
    expect(toast.error).toHaveBeenCalledWith(messages.http[500]);
    expect(toast.error).toHaveBeenCalledWith(messages.http.fallback);
  });

  it("changePassword: 'Password changed successfully'; a wrong current password is left to the form", async () => {
    useAuthStore.setState({ user, token: 'access-1', isAuthenticated: true });
    mockFetch({
      'POST /api/v1/auth/change-password': [
        () => json(200, { success: true, data: { revokedCount: 2 } }),
        () => apiError(401, 'INVALID_CREDENTIALS', 'The current password is incorrect'),
        () => json(500, {}),
      ],
    });
    const input = { currentPassword: 'a', newPassword: 'b', confirmPassword: 'b' };
    await useAuthStore.getState().changePassword(input);
    expect(toast.success).toHaveBeenCalledWith('Password changed successfully');
    await expect(useAuthStore.getState().changePassword(input)).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    expect(toast.error).not.toHaveBeenCalled();
    expect(useAuthStore.getState().isAuthenticated).toBe(true);
    await expect(useAuthStore.getState().changePassword(input)).rejects.toBeTruthy();
    expect(toast.error).toHaveBeenCalledWith(messages.http[500]);
  });

  it('start-up: a stored token counts as signed in and the user is re-read', async () => {
    useAuthStore.setState({ token: 'access-1', isAuthenticated: false, user: null });
    const fresh = makeUser({ name: 'Ada Byron' });
    mockFetch({ 'GET /api/v1/auth/me': () => json(200, { success: true, data: { user: fresh } }) });
    const p = useAuthStore.getState().initialize();
    expect(useAuthStore.getState().isAuthenticated).toBe(true);
    await p;
    expect(useAuthStore.getState().user).toEqual(fresh);
  });

  it('start-up: a failing /auth/me logs out', async () => {
    useAuthStore.setState({ token: 'access-1', isAuthenticated: true, user });
    mockFetch({ 'GET /api/v1/auth/me': () => apiError(403, 'ACCOUNT_DISABLED', 'This account has been deactivated') });
    await useAuthStore.getState().initialize();
    expect(useAuthStore.getState()).toMatchObject({ isAuthenticated: false, token: null, user: null });
  });

  it('start-up: a dead session (refresh refused) logs out with the session-expired toast', async () => {
    useAuthStore.setState({ token: 'access-1', isAuthenticated: true, user });
    mockFetch({
      'GET /api/v1/auth/me': () => apiError(401, 'INVALID_TOKEN', 'Session expired or revoked'),
      'POST /api/v1/auth/refresh': () => apiError(401, 'INVALID_TOKEN', 'No refresh token'),
    });
    await useAuthStore.getState().initialize();
    expect(useAuthStore.getState()).toMatchObject({ isAuthenticated: false, token: null, user: null });
    expect(toast.error).toHaveBeenCalledWith('Session expired. Please sign in again.', expect.anything());
  });

  it('start-up after a reload: no token in memory, so the refresh cookie gets one, then the user is re-read', async () => {
    useAuthStore.setState({ token: null, isAuthenticated: true, user });
    const f = mockFetch({
      'POST /api/v1/auth/refresh': () => json(200, { success: true, data: { tokens: makeTokens('access-reload') } }),
      'GET /api/v1/auth/me': () => json(200, { success: true, data: { user } }),
    });
    await useAuthStore.getState().initialize();
    expect(useAuthStore.getState()).toMatchObject({ isAuthenticated: true, token: 'access-reload', user });
    expect(f.callsTo('POST /api/v1/auth/refresh')[0]!.body).toEqual({}); // the cookie carries the refresh token
  });

  it('start-up after a reload with no live session: signed out', async () => {
    useAuthStore.setState({ token: null, isAuthenticated: true, user });
    mockFetch({ 'POST /api/v1/auth/refresh': () => apiError(401, 'INVALID_TOKEN', 'No refresh token') });
    await useAuthStore.getState().initialize();
    expect(useAuthStore.getState()).toMatchObject({ isAuthenticated: false, user: null });
  });

  it('start-up of a visitor (never signed in): no call at all', async () => {
    useAuthStore.setState({ token: null, isAuthenticated: false, user: null });
    const f = mockFetch({});
    await useAuthStore.getState().initialize();
    expect(f.calls).toHaveLength(0);
  });
});
