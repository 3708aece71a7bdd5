/** Retries of refused calls: 429 (limits) and 503 (overloaded, maintenance), after the server's Retry-After. */
export interface RetryOptions {
  /** Attempts in all, the first included (default 3; 1 turns retries off). */
  maxAttempts?: number;
  /** The longest wait before one retry (default 60 000 ms): an answer asking for more is returned as it is. */
  maxWaitMs?: number;
  /** The wait when the answer has no usable Retry-After (default 1 000 ms). */
  defaultWaitMs?: number;
  /** The statuses retried (default 429 and 503). */
  statuses?: number[];
  /** Told before each wait (logging, tests). */
  onRetry?: (info: RetryInfo) => void;
}

export interface RetryInfo {
  /** The attempt that was refused (1 for the first call). */
  attempt: number;
  status: number;
  waitMs: number;
  url: string;
}

export const defaultRetry = { maxAttempts: 3, maxWaitMs: 60_000, defaultWaitMs: 1_000, statuses: [429, 503] };

/**
 * Retry-After in milliseconds: delay-seconds or an HTTP date (RFC 9110 §10.2.3); undefined when absent or unreadable.
 * A date in the past means now (0).
 */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (value === null || value === undefined) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  if (!/[a-z]/i.test(text)) return undefined;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Wait `ms`, or reject as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal | null): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export type FetchLike = (request: Request, init?: unknown) => Promise<Response>;

/**
 * A fetch that sends a request again when it is refused with a retried status, after the answer's Retry-After,
 * at most `maxAttempts` times in all and never waiting longer than `maxWaitMs` at once. The body is kept for the
 * retries (the request is cloned before each attempt but the last); the request's signal cuts a wait short.
 */
export function withRetries(fetchImpl: FetchLike, options: RetryOptions = {}): FetchLike {
  const o = { ...defaultRetry, ...options };
  return async (request, init) => {
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= o.maxAttempts;
      const response = await fetchImpl(last ? request : request.clone(), init);
      if (last || !o.statuses.includes(response.status)) return response;
      const waitMs = parseRetryAfter(response.headers.get('retry-after')) ?? o.defaultWaitMs;
      if (waitMs > o.maxWaitMs) return response;
      // The refused answer is dropped: free its connection before waiting.
      await response.body?.cancel().catch(() => undefined);
      o.onRetry?.({ attempt, status: response.status, waitMs, url: request.url });
      await sleep(waitMs, request.signal);
    }
  };
}
