import { vi } from 'vitest';

export interface RecordedCall {
  method: string;
  url: string;
  path: string;
  headers: Record<string, string>;
  body: unknown;
  credentials?: RequestCredentials;
}

type Handler = (call: RecordedCall) => Response | Promise<Response>;

/** The init a Request stands for: its method, headers (lower-case names), body (a form read back, else its text). */
async function initOf(request: Request): Promise<RequestInit> {
  const type = request.headers.get('content-type') ?? '';
  const body = !request.body
    ? undefined
    : type.startsWith('multipart/form-data')
      ? await request.clone().formData()
      : await request.clone().text();
  return {
    method: request.method,
    headers: Object.fromEntries(request.headers),
    body,
    credentials: request.credentials,
    signal: request.signal,
  };
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

export const apiError = (status: number, code: string, error?: string) =>
  json(status, { success: false, ...(error ? { error } : {}), code, requestId: 'req-test' });

/**
 * Replace fetch with a router: keys are "METHOD /path" (path without the query string). Every call is recorded;
 * an unmatched call answers 404 ROUTE_NOT_FOUND so a test sees it.
 */
export function mockFetch(routes: Record<string, Handler | Handler[]>) {
  const calls: RecordedCall[] = [];
  const queues = new Map(Object.entries(routes).map(([k, v]) => [k, Array.isArray(v) ? [...v] : v]));
  const fn = vi.fn(async (input: RequestInfo | URL, given: RequestInit = {}) => {
    // A Request (what @docflow/client sends) is recorded as the same call made with (url, init).
    const init = input instanceof Request ? await initOf(input) : given;
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = (init.method ?? 'GET').toUpperCase();
    const path = url.replace(/^https?:\/\/[^/]+/, '').split('?')[0]!;
    let body: unknown = init.body;
    if (typeof body === 'string') {
      try {
        body = JSON.parse(body);
      } catch {
        /* keep the text */
      }
    }
    const headers = Object.fromEntries(
      Object.entries((init.headers ?? {}) as Record<string, string>).map(([k, v]) => [k.toLowerCase(), v]),
    );
    const call: RecordedCall = { method, url, path, headers, body, credentials: init.credentials };
    calls.push(call);
    if (init.signal?.aborted) throw new DOMException('Aborted', 'AbortError');
    const entry = queues.get(`${method} ${path}`);
    if (!entry) return apiError(404, 'ROUTE_NOT_FOUND', `Route ${method} ${path} not found`);
    const handler = Array.isArray(entry) ? (entry.length > 1 ? entry.shift()! : entry[0]!) : entry;
    return handler(call);
  });
  vi.stubGlobal('fetch', fn);
  return { fn, calls, callsTo: (key: string) => calls.filter((c) => `${c.method} ${c.path}` === key) };
}
