import { errorStatus, type TErrorCode } from '@docflow/contracts/error-codes';
import { constants, messages } from '@/config/messages';
import { toast } from '@/lib/toast';
import { currentLanguage } from '@/i18n';
import { issueMessage, type FieldIssueLike } from '@/lib/validation/issue-message';

/**
 * The one HTTP client of the dashboard (spec-1 §7, §8): base `/api/v1`, the bearer access token on every call,
 * a 10 000 ms timeout, cookies on `/auth` calls (the refresh token lives in the httpOnly `df_refresh` cookie), and
 * the global error behaviour:
 *
 * | status | behaviour |
 * |---|---|
 * | 401 | silently refresh the access token once (one refresh shared by concurrent calls) and replay; if that fails, log out and toast 'Session expirée…' |
 * | 403, 404, 429, 500 | the spec's toast |
 * | 422 | nothing: the caller handles it |
 * | other ≥ 400 | the server's message, else 'Une erreur est survenue.' |
 *
 * Every failure throws an {@link ApiError}. `silent: true` lets a caller show its own message instead of the toast.
 */

export const API_BASE = '/api/v1';

/**
 * An error's code: one of the contracts' codes the server answers with, one of the client's own for a failure that
 * never got an answer, or `HTTP_<status>` for an answer without a known code (e.g. from a proxy).
 */
export type ApiErrorCode = TErrorCode | 'NETWORK_ERROR' | 'INVALID_RESPONSE' | `HTTP_${number}`;

const isErrorCode = (code: string | undefined): code is TErrorCode => code !== undefined && code in errorStatus;

/** Codes that mean "your access token is no longer good" (as opposed to, e.g., a wrong password). */
const SESSION_CODES = new Set<ApiErrorCode>(['UNAUTHORIZED', 'INVALID_TOKEN', 'TOKEN_EXPIRED']);

/** Wording for failures that never reached the server (the specification is silent on these). */
export const transportMessages = {
  get timeout() {
    return messages.http.timeout;
  },
  get network() {
    return messages.store.connection;
  },
};

export class ApiError extends Error {
  readonly status: number;
  readonly code: ApiErrorCode;
  readonly requestId?: string;
  readonly details?: unknown;
  /** The server's own `error` (or `message`) field, when it sent one. */
  readonly serverMessage?: string;

  constructor(init: {
    status: number;
    code: ApiErrorCode;
    message: string;
    serverMessage?: string;
    requestId?: string;
    details?: unknown;
  }) {
    super(init.message);
    this.name = 'ApiError';
    this.status = init.status;
    this.code = init.code;
    this.serverMessage = init.serverMessage;
    this.requestId = init.requestId;
    this.details = init.details;
  }
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;

/** The message spec-1 §8 gives for a status, or undefined when the caller must decide (401, 422, others). */
export function statusMessage(status: number): string | undefined {
  switch (status) {
    case 403:
      return messages.http[403];
    case 404:
      return messages.http[404];
    case 429:
      return messages.http[429];
    case 500:
      return messages.http[500];
    default:
      return undefined;
  }
}

/** What the global handler toasts for a failed call (null: no toast). 401 is handled by the session logic. */
export function globalErrorMessage(status: number, serverMessage?: string): string | null {
  if (status === 422) return null;
  if (status === 401) return messages.http[401];
  return statusMessage(status) ?? serverMessage ?? messages.http.fallback;
}

export interface AuthBridge {
  getToken(): string | null;
  /** Signed in, but the access token (kept in memory only) is not here yet: after a reload, before the refresh. */
  awaitsToken?(): boolean;
  setToken(accessToken: string): void;
  /** The session is gone (refresh failed): clear it locally. The client shows the toast. */
  onSessionExpired(): void;
}

let bridge: AuthBridge = {
  getToken: () => null,
  setToken: () => undefined,
  onSessionExpired: () => undefined,
};

/** Wire the client to the auth store (done once by the store module). */
export function configureApiAuth(next: AuthBridge): void {
  bridge = next;
}

type Query = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** JSON-serialised unless it is FormData, Blob or a string. */
  body?: unknown;
  query?: Query;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** No global toast: the caller shows its own message. The 401 refresh-and-replay still happens. */
  silent?: boolean;
  /** Do not send the bearer token. */
  skipAuth?: boolean;
  /** Do not refresh-and-replay on 401 (the auth endpoints themselves). */
  skipRefresh?: boolean;
  responseType?: 'json' | 'blob' | 'text';
}

function buildUrl(path: string, query?: Query): string {
  const url = path.startsWith('http') ? path : `${API_BASE}${path.startsWith('/') ? path : `/${path}`}`;
  if (!query) return url;
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null) qs.set(k, String(v));
  const s = qs.toString();
  return s ? `${url}${url.includes('?') ? '&' : '?'}${s}` : url;
}

function isAuthPath(path: string): boolean {
  return path.startsWith('/auth') || path.startsWith(`${API_BASE}/auth`);
}

async function readBody(res: Response, type: RequestOptions['responseType']): Promise<unknown> {
  if (res.status === 204) return undefined;
  if (type === 'blob') return res.blob();
  if (type === 'text') return res.text();
  const text = await res.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

async function readError(res: Response): Promise<ApiError> {
  let body: Record<string, unknown> | undefined;
  try {
    const text = await res.text();
    body = text ? (JSON.parse(text) as Record<string, unknown>) : undefined;
  } catch {
    body = undefined;
  }
  const pick = (k: string) => (body && typeof body[k] === 'string' && body[k] ? (body[k] as string) : undefined);
  const serverMessage = pick('error') ?? pick('message');
  const code = pick('code');
  return new ApiError({
    status: res.status,
    code: isErrorCode(code) ? code : `HTTP_${res.status}`,
    message: serverMessage ?? statusMessage(res.status) ?? messages.http.fallback,
    serverMessage,
    requestId: pick('requestId') ?? res.headers.get('x-request-id') ?? undefined,
    details: body?.details,
  });
}

/** fetch with the timeout; transport failures become ApiError (status 0). A caller's own abort is rethrown. */
async function send(url: string, init: RequestInit, timeoutMs: number, callerSignal?: AbortSignal): Promise<Response> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const onCallerAbort = () => controller.abort();
  if (callerSignal) {
    if (callerSignal.aborted) controller.abort();
    else callerSignal.addEventListener('abort', onCallerAbort, { once: true });
  }
  try {
    return await fetch(url, { ...init, signal: controller.signal });
  } catch (err) {
    if (timedOut) throw new ApiError({ status: 0, code: 'TIMEOUT', message: transportMessages.timeout });
    if (callerSignal?.aborted) throw err;
    throw new ApiError({ status: 0, code: 'NETWORK_ERROR', message: transportMessages.network });
  } finally {
    clearTimeout(timer);
    callerSignal?.removeEventListener('abort', onCallerAbort);
  }
}

let refreshing: Promise<string> | null = null;

/**
 * POST /auth/refresh with the cookie (empty JSON body) and store the new access token. Concurrent callers share
 * one request: the refresh token rotates on every use, so two parallel refreshes would look like token reuse.
 */
export function refreshAccessToken(): Promise<string> {
  if (!refreshing) {
    refreshing = (async () => {
      const res = await send(
        buildUrl('/auth/refresh'),
        {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            Accept: 'application/json',
            'Accept-Language': currentLanguage(),
          },
          body: '{}',
          credentials: 'include',
        },
        constants.requestTimeoutMs,
      );
      if (!res.ok) throw await readError(res);
      const body = (await res.json()) as { data?: { tokens?: { accessToken?: string } } };
      const token = body?.data?.tokens?.accessToken;
      if (!token) throw new ApiError({ status: 500, code: 'INVALID_RESPONSE', message: messages.http.fallback });
      bridge.setToken(token);
      return token;
    })().finally(() => {
      refreshing = null;
    });
  }
  return refreshing;
}

/** The session is over (revoked, expired): sign out here and say so once, whatever number of calls noticed it. */
export function expireSession(): void {
  bridge.onSessionExpired();
  toast.error(messages.http[401], { id: 'session-expired' });
}

const pending = new Set<Promise<unknown>>();

/**
 * Resolves once no call is in flight (or after `timeoutMs`). Logout waits for it before revoking the session, so
 * answers to calls made just before do not come back 401 and look like an expired session.
 */
export async function whenIdle(timeoutMs = 2000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (pending.size > 0 && Date.now() < deadline) {
    await Promise.race([Promise.allSettled([...pending]), new Promise((r) => setTimeout(r, deadline - Date.now()))]);
  }
}

export function request<T = unknown>(path: string, opts: RequestOptions = {}): Promise<T> {
  const p = doRequest<T>(path, opts);
  pending.add(p);
  const done = () => void pending.delete(p);
  p.then(done, done);
  return p;
}

async function doRequest<T>(path: string, opts: RequestOptions): Promise<T> {
  const method = opts.method ?? 'GET';
  const url = buildUrl(path, opts.query);
  // The dashboard names itself: a sign-up from here is recorded as source 'web', one by a direct API call as 'api'.
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'X-DocFlow-Client': 'dashboard',
    // The server's human messages (errors, notifications) come back in the interface's language.
    'Accept-Language': currentLanguage(),
    ...opts.headers,
  };
  let body: BodyInit | undefined;
  if (opts.body !== undefined) {
    if (opts.body instanceof FormData || opts.body instanceof Blob || typeof opts.body === 'string')
      body = opts.body as BodyInit;
    else {
      body = JSON.stringify(opts.body);
      headers['Content-Type'] = 'application/json';
    }
  }
  const timeoutMs = opts.timeoutMs ?? constants.requestTimeoutMs;

  const attempt = (token: string | null) =>
    send(
      url,
      {
        method,
        body,
        headers: token && !opts.skipAuth ? { ...headers, Authorization: `Bearer ${token}` } : headers,
        credentials: isAuthPath(path) ? 'include' : 'same-origin',
      },
      timeoutMs,
      opts.signal,
    );

  const fail = (err: ApiError): never => {
    if (!opts.silent) {
      // A 401 that is not about the session (no token sent, or e.g. a wrong current password) gets the server's words.
      const msg =
        err.status === 401
          ? (err.serverMessage ?? messages.http.fallback)
          : globalErrorMessage(err.status, err.serverMessage);
      if (msg) toast.error(msg);
    }
    throw err;
  };

  let sentToken = opts.skipAuth ? null : bridge.getToken();
  // After a reload the first calls start before the refresh cookie has brought the access token: they wait for it
  // (one shared refresh) rather than go out without one.
  if (!sentToken && !opts.skipAuth && !opts.skipRefresh && bridge.awaitsToken?.()) {
    try {
      sentToken = await refreshAccessToken();
    } catch (err) {
      // Offline: say so. Otherwise the session ended while the page was closed (revoked from another device): the
      // session-expired message, not the refusal this call would get without a token.
      if (err instanceof ApiError && err.status === 0) {
        if (!opts.silent) toast.error(err.message);
        throw err;
      }
      expireSession();
      throw new ApiError({ status: 401, code: 'UNAUTHORIZED', message: messages.http[401] });
    }
  }
  let res: Response;
  try {
    res = await attempt(sentToken);
  } catch (err) {
    if (err instanceof ApiError && !opts.silent) toast.error(err.message);
    throw err;
  }

  if (res.status === 401 && sentToken && !opts.skipRefresh) {
    const first = await readError(res);
    // Signed out while this call was in flight: nothing to refresh, nothing to tell.
    if (!bridge.getToken()) throw first;
    if (!SESSION_CODES.has(first.code) && !first.code.startsWith('HTTP_')) return fail(first);
    try {
      // Another call may have refreshed while this one was in flight: replay with the new token without refreshing.
      const current = bridge.getToken();
      sentToken = current && current !== sentToken ? current : await refreshAccessToken();
    } catch (err) {
      if (err instanceof ApiError && err.status === 0) {
        if (!opts.silent) toast.error(err.message);
        throw err;
      }
      expireSession();
      throw first;
    }
    res = await attempt(sentToken);
    if (res.status === 401) {
      const again = await readError(res);
      if (SESSION_CODES.has(again.code) || again.code.startsWith('HTTP_')) {
        expireSession();
        throw again;
      }
      return fail(again);
    }
  }

  // A call that needed the session went out without one (signed out meanwhile, e.g. after the session was revoked
  // from another device): the session-expired message was shown, the server's "send an access token" is not for people.
  if (res.status === 401 && !sentToken && !opts.skipAuth && !isAuthPath(path)) throw await readError(res);
  if (!res.ok) return fail(await readError(res));
  return (await readBody(res, opts.responseType)) as T;
}

export const api = {
  request,
  get: <T = unknown>(path: string, opts?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...opts, method: 'GET' }),
  post: <T = unknown>(path: string, body?: unknown, opts?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...opts, method: 'POST', body }),
  put: <T = unknown>(path: string, body?: unknown, opts?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...opts, method: 'PUT', body }),
  patch: <T = unknown>(path: string, body?: unknown, opts?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...opts, method: 'PATCH', body }),
  delete: <T = unknown>(path: string, opts?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...opts, method: 'DELETE' }),
};

/** The message a screen shows for a failure: the server's text, else the client's, else `fallback`. */
export function errorMessage(err: unknown, fallback: string): string {
  if (err instanceof ApiError) return err.serverMessage ?? err.message ?? fallback;
  if (err instanceof Error && err.message) return err.message;
  return fallback;
}

/**
 * The field errors of an answer (a 422's `details.fields`), by field path: a form shows each beside its field,
 * without the `field:` prefix of the overall message. A field's problem that carries its zod code is worded from the
 * catalogues in the interface's language (lib/validation/issue-message.ts); one the schema words itself keeps the
 * server's words (given in the interface's language by Accept-Language). Empty when the answer names no field.
 */
export function fieldErrors(err: unknown): Record<string, string> {
  if (!(err instanceof ApiError)) return {};
  return fieldErrorsOf(err.details);
}

/** `fieldErrors` of an answer's `details`, however it was received (the playground reads raw answers). */
export function fieldErrorsOf(details: unknown): Record<string, string> {
  const fields = (details as { fields?: unknown } | undefined)?.fields;
  if (!Array.isArray(fields)) return {};
  const out: Record<string, string> = {};
  for (const f of fields as Array<FieldIssueLike & { field?: unknown }>)
    if (typeof f?.field === 'string' && typeof f.message === 'string' && !(f.field in out))
      out[f.field] = f.code ? issueMessage(f, f.message) : f.message;
  return out;
}
