import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { messages } from '@/config/messages';
import { ApiError, api, configureApiAuth, globalErrorMessage } from '@/lib/api-client';
import { toast } from '@/lib/toast';
import { apiError, json, mockFetch } from '@/testing/mock-fetch';

vi.mock('@/lib/toast', () => import('@/testing/mock-toast'));

let token: string | null = 'access-old';
const onSessionExpired = vi.fn();

beforeEach(() => {
  token = 'access-old';
  configureApiAuth({ getToken: () => token, setToken: (t) => void (token = t), onSessionExpired });
});
afterEach(() => {
  vi.clearAllMocks();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('api client: the request', () => {
  it('prefixes /api/v1, sends the bearer token and JSON, and returns the parsed body', async () => {
    const f = mockFetch({ 'POST /api/v1/things': () => json(201, { success: true, data: { id: 1 } }) });
    const res = await api.post<{ data: { id: number } }>('/things', { a: 1 }, { query: { page: 2, empty: undefined } });
    expect(res.data.id).toBe(1);
    const [call] = f.calls;
    expect(call!.url).toBe('/api/v1/things?page=2');
    expect(call!.headers.authorization).toBe('Bearer access-old');
    expect(call!.headers['content-type']).toBe('application/json');
    expect(call!.body).toEqual({ a: 1 });
    expect(call!.credentials).toBe('same-origin');
  });

  it("sends cookies ('include') on /auth calls, where the refresh cookie lives", async () => {
    const f = mockFetch({ 'GET /api/v1/auth/me': () => json(200, { success: true, data: {} }) });
    await api.get('/auth/me');
    expect(f.calls[0]!.credentials).toBe('include');
  });

  it('sends no Authorization header without a token or with skipAuth', async () => {
    const f = mockFetch({ 'GET /api/v1/x': () => json(200, {}) });
    await api.get('/x', { skipAuth: true });
    token = null;
    await api.get('/x');
    expect(f.calls.map((c) => c.headers.authorization)).toEqual([undefined, undefined]);
  });

  it('gives up after 10 000 ms with a typed TIMEOUT error', async () => {
    vi.useFakeTimers();
    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_url: string, init: RequestInit) =>
          new Promise((_resolve, reject) =>
            init.signal!.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError'))),
          ),
      ),
    );
    const p = api.get('/slow', { silent: true });
    const assertion = expect(p).rejects.toMatchObject({ name: 'ApiError', status: 0, code: 'TIMEOUT' });
    await vi.advanceTimersByTimeAsync(9_999);
    await vi.advanceTimersByTimeAsync(1);
    await assertion;
  });
});

describe('api client: the global error table (spec-1 §8)', () => {
  const cases: Array<[number, string, string | undefined, string | null]> = [
    [403, 'FORBIDDEN', 'nope', messages.http[403]],
    [404, 'NOT_FOUND', 'missing', messages.http[404]],
    [429, 'RATE_LIMIT_EXCEEDED', 'slow down', messages.http[429]],
    [500, 'INTERNAL_ERROR', 'Internal server error', messages.http[500]],
    [409, 'EMAIL_TAKEN', 'This email is already registered', 'This email is already registered'],
    [413, 'FILE_TOO_LARGE', undefined, messages.http.fallback],
    [503, 'SERVICE_UNAVAILABLE', 'Overloaded, retry later', 'Overloaded, retry later'],
    [422, 'VALIDATION_ERROR', 'name: too short', null],
  ];

  it.each(cases)('%i → toast %#', async (status, code, serverMessage, expected) => {
    mockFetch({ 'GET /api/v1/thing': () => apiError(status, code, serverMessage) });
    const err = await api.get('/thing').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ status, code, serverMessage });
    expect((err as ApiError).message).toBe(serverMessage ?? globalErrorMessage(status) ?? messages.http.fallback);
    if (expected === null) expect(toast.error).not.toHaveBeenCalled();
    else expect(toast.error).toHaveBeenCalledWith(expected);
  });

  it('shows nothing when the caller opts out with silent', async () => {
    mockFetch({ 'GET /api/v1/thing': () => apiError(500, 'INTERNAL_ERROR', 'boom') });
    await expect(api.get('/thing', { silent: true })).rejects.toMatchObject({ status: 500 });
    expect(toast.error).not.toHaveBeenCalled();
  });

  it("keeps the contracts' error code, and names an unknown one by its status", async () => {
    mockFetch({
      'GET /api/v1/known': () => apiError(429, 'QUOTA_EXCEEDED', 'Monthly quota reached'),
      'GET /api/v1/unknown': () => apiError(502, 'UPSTREAM_HICCUP'),
    });
    await expect(api.get('/known', { silent: true })).rejects.toMatchObject({ code: 'QUOTA_EXCEEDED' });
    await expect(api.get('/unknown', { silent: true })).rejects.toMatchObject({ status: 502, code: 'HTTP_502' });
  });

  it('maps the table in one function', () => {
    expect(globalErrorMessage(401)).toBe('Session expired. Please sign in again.');
    expect(globalErrorMessage(403)).toBe('Access denied. Insufficient permissions.');
    expect(globalErrorMessage(404)).toBe('Resource not found.');
    expect(globalErrorMessage(422)).toBeNull();
    expect(globalErrorMessage(429)).toBe('Rate limit exceeded. Please wait.');
    expect(globalErrorMessage(500)).toBe('Server error. Please try again later.');
    expect(globalErrorMessage(418, 'teapot')).toBe('teapot');
    expect(globalErrorMessage(418)).toBe('An error occurred.');
  });
});

describe('api client: 401, refresh and replay', () => {
  const refreshed = (t: string) => () =>
    json(200, {
      success: true,
      data: { tokens: { accessToken: t, refreshToken: 'r', expiresIn: 900, tokenType: 'Bearer' } },
    });

  it('refreshes once with the cookie and replays the call with the new token', async () => {
    const f = mockFetch({
      'GET /api/v1/me-things': (c) =>
        c.headers.authorization === 'Bearer access-new'
          ? json(200, { ok: true })
          : apiError(401, 'INVALID_TOKEN', 'expired'),
      'POST /api/v1/auth/refresh': refreshed('access-new'),
    });
    await expect(api.get('/me-things')).resolves.toEqual({ ok: true });
    const refresh = f.callsTo('POST /api/v1/auth/refresh');
    expect(refresh).toHaveLength(1);
    expect(refresh[0]!.body).toEqual({});
    expect(refresh[0]!.credentials).toBe('include');
    expect(refresh[0]!.headers.authorization).toBeUndefined();
    expect(token).toBe('access-new');
    expect(toast.error).not.toHaveBeenCalled();
    expect(onSessionExpired).not.toHaveBeenCalled();
  });

  it('shares one refresh between concurrent calls', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const f = mockFetch({
      'GET /api/v1/a': (c) =>
        c.headers.authorization === 'Bearer access-new' ? json(200, 'a') : apiError(401, 'INVALID_TOKEN'),
      'GET /api/v1/b': (c) =>
        c.headers.authorization === 'Bearer access-new' ? json(200, 'b') : apiError(401, 'TOKEN_EXPIRED'),
      'GET /api/v1/c': (c) =>
        c.headers.authorization === 'Bearer access-new' ? json(200, 'c') : apiError(401, 'UNAUTHORIZED'),
      'POST /api/v1/auth/refresh': async () => {
        await gate;
        return refreshed('access-new')();
      },
    });
    const all = Promise.all([api.get('/a'), api.get('/b'), api.get('/c')]);
    await vi.waitFor(() => expect(f.callsTo('POST /api/v1/auth/refresh')).toHaveLength(1));
    release();
    await expect(all).resolves.toEqual(['a', 'b', 'c']);
    expect(f.callsTo('POST /api/v1/auth/refresh')).toHaveLength(1);
  });

  it("logs out with 'Session expirée…' when the refresh fails", async () => {
    const f = mockFetch({
      'GET /api/v1/x': () => apiError(401, 'INVALID_TOKEN', 'Session expired or revoked'),
      'POST /api/v1/auth/refresh': () => apiError(401, 'INVALID_TOKEN', 'revoked'),
    });
    await expect(api.get('/x')).rejects.toMatchObject({ status: 401 });
    expect(onSessionExpired).toHaveBeenCalledTimes(1);
    expect(toast.error).toHaveBeenCalledWith('Session expired. Please sign in again.', expect.anything());
    expect(f.callsTo('GET /api/v1/x')).toHaveLength(1);
  });

  it('logs out when the replay is refused again', async () => {
    mockFetch({
      'GET /api/v1/x': () => apiError(401, 'INVALID_TOKEN'),
      'POST /api/v1/auth/refresh': refreshed('access-new'),
    });
    await expect(api.get('/x')).rejects.toMatchObject({ status: 401 });
    expect(onSessionExpired).toHaveBeenCalledTimes(1);
  });

  it('does not refresh for a 401 that is not about the session (wrong current password)', async () => {
    const f = mockFetch({
      'POST /api/v1/auth/change-password': () => apiError(401, 'INVALID_CREDENTIALS', 'The current password is wrong'),
    });
    await expect(api.post('/auth/change-password', {})).rejects.toMatchObject({ code: 'INVALID_CREDENTIALS' });
    expect(f.callsTo('POST /api/v1/auth/refresh')).toHaveLength(0);
    expect(onSessionExpired).not.toHaveBeenCalled();
    expect(toast.error).toHaveBeenCalledWith('The current password is wrong');
  });

  it('stays quiet when the 401 answers a call made before signing out', async () => {
    let answer!: (r: Response) => void;
    const f = mockFetch({ 'GET /api/v1/slow': () => new Promise<Response>((r) => (answer = r)) });
    const p = api.get('/slow');
    await vi.waitFor(() => expect(f.calls).toHaveLength(1));
    token = null; // signed out meanwhile
    answer(apiError(401, 'INVALID_TOKEN', 'Session expired or revoked'));
    await expect(p).rejects.toMatchObject({ status: 401 });
    expect(f.callsTo('POST /api/v1/auth/refresh')).toHaveLength(0);
    expect(onSessionExpired).not.toHaveBeenCalled();
    expect(toast.error).not.toHaveBeenCalled();
  });

  it('does not refresh without a token or with skipRefresh', async () => {
    const f = mockFetch({
      'POST /api/v1/auth/login': () => apiError(401, 'INVALID_CREDENTIALS', 'Invalid email or password'),
    });
    token = null;
    await expect(api.post('/auth/login', {}, { silent: true })).rejects.toMatchObject({ status: 401 });
    token = 'access-old';
    await expect(api.post('/auth/login', {}, { silent: true, skipRefresh: true })).rejects.toMatchObject({
      status: 401,
    });
    expect(f.callsTo('POST /api/v1/auth/refresh')).toHaveLength(0);
    expect(toast.error).not.toHaveBeenCalled();
  });

  const rawRefusal = 'Authentication required: send an access token as "Authorization: Bearer <token>"';

  it("never shows the server's 'send an access token' to a person: a call made after the session ended stays quiet", async () => {
    mockFetch({ 'GET /api/v1/notifications': () => apiError(401, 'UNAUTHORIZED', rawRefusal) });
    token = null;
    await expect(api.get('/notifications')).rejects.toMatchObject({ status: 401, code: 'UNAUTHORIZED' });
    expect(toast.error).not.toHaveBeenCalled();
  });

  it('after a reload whose session was revoked elsewhere: the session-expired message, and the call is not sent', async () => {
    const f = mockFetch({
      'POST /api/v1/auth/refresh': () => apiError(401, 'INVALID_TOKEN', 'Session revoked'),
      'GET /api/v1/my/api-keys': () => apiError(401, 'UNAUTHORIZED', rawRefusal),
    });
    token = null;
    configureApiAuth({
      getToken: () => token,
      setToken: (t) => void (token = t),
      onSessionExpired,
      awaitsToken: () => true,
    });
    await expect(api.get('/my/api-keys')).rejects.toMatchObject({ status: 401 });
    expect(onSessionExpired).toHaveBeenCalledTimes(1);
    expect(toast.error).toHaveBeenCalledWith(messages.http[401], { id: 'session-expired' });
    expect(vi.mocked(toast.error).mock.calls.flat()).not.toContain(rawRefusal);
    expect(f.callsTo('GET /api/v1/my/api-keys')).toHaveLength(0);
  });
});
