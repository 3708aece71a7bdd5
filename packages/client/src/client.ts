import createClient, { type Client } from 'openapi-fetch';
import { readFile, readJson, type DownloadedFile, type FileReadMode } from './download.js';
import { DocFlowError } from './errors.js';
import { JobWaitError, terminalStatuses, type TJob, type WaitForJobOptions } from './jobs.js';
import { sleep, withRetries, type FetchLike, type RetryOptions } from './retry.js';
import type { paths } from './schema.js';
import { buildMultipart, type MultipartPath, type UploadInput } from './upload.js';

/** Every path the client knows: the generated ones, and the jobs routes until they are in the document. */
export type DocFlowPaths = paths;

type Token = string | undefined | (() => string | undefined | Promise<string | undefined>);

export interface DocFlowClientOptions {
  /** The server, e.g. http://localhost:3000 (default in a browser: the page's origin). Paths start with /api/v1. */
  baseUrl?: string;
  /** An API key (dfk_…), sent as `x-api-key`: what the processing routes take. */
  apiKey?: string;
  /** A dashboard access token (or a function giving the current one), sent as `Authorization: Bearer`. */
  accessToken?: Token;
  /** Retries of 429 and 503 answers after Retry-After; `false` turns them off. */
  retry?: RetryOptions | false;
  /** The fetch to use (default: the global one). */
  fetch?: FetchLike;
  /** Cookies: the playground sends none (`omit`); the dashboard's /auth calls need `include`. */
  credentials?: RequestCredentials;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Extra headers of this call; they win over the client's authentication headers. */
  headers?: Record<string, string>;
  /** Answers outside 2xx throw a {@link DocFlowError} (default); `false` returns them. */
  throwOnError?: boolean;
}

export type DocFlowClient = ReturnType<typeof createDocFlowClient>;

const defaultBaseUrl = () => (globalThis as { location?: { origin?: string } }).location?.origin ?? '';

/**
 * The DocFlow client: `api` is the typed openapi-fetch client of every route (`api.GET('/api/v1/ping')`,
 * `api.POST('/api/v1/qrcode/url', { body })`), and the helpers cover what every processing call shares: the
 * multipart upload, the file download with its name, retries after Retry-After, and waiting for a job.
 */
export function createDocFlowClient(options: DocFlowClientOptions = {}) {
  const baseFetch: FetchLike = options.fetch ?? ((request, init) => globalThis.fetch(request, init as RequestInit));

  /** Authentication headers go on each request unless the call set its own. */
  const authorized: FetchLike = async (request, init) => {
    if (options.apiKey && !request.headers.has('x-api-key') && !request.headers.has('authorization'))
      request.headers.set('x-api-key', options.apiKey);
    const token = typeof options.accessToken === 'function' ? await options.accessToken() : options.accessToken;
    if (token && !request.headers.has('authorization') && !request.headers.has('x-api-key'))
      request.headers.set('authorization', `Bearer ${token}`);
    return baseFetch(request, init);
  };
  const fetchImpl = options.retry === false ? authorized : withRetries(authorized, options.retry);

  const api: Client<DocFlowPaths> = createClient<DocFlowPaths>({
    baseUrl: options.baseUrl ?? defaultBaseUrl(),
    fetch: (request: Request) => fetchImpl(request),
    ...(options.credentials ? { credentials: options.credentials } : {}),
  });

  /** The generic helpers name their path at run time; openapi-fetch types a literal path, so they call it untyped. */
  type UntypedCall = (path: string, init: Record<string, unknown>) => Promise<{ response: Response; error?: unknown }>;
  const untyped = { GET: api.GET as unknown as UntypedCall, POST: api.POST as unknown as UntypedCall };

  /** One call whose body is left unread (a file or JSON); outside 2xx it throws unless `throwOnError: false`. */
  async function send(
    method: keyof typeof untyped,
    path: string,
    init: Record<string, unknown>,
    call: CallOptions,
  ): Promise<Response> {
    const { response, error } = await untyped[method](path, {
      ...init,
      parseAs: 'stream',
      headers: call.headers,
      signal: call.signal,
    });
    if (response.ok) return response;
    if (call.throwOnError !== false) throw DocFlowError.fromBody(response, error);
    return rebuilt(response, error);
  }

  /**
   * POST files and options to a processing route as multipart/form-data. Answers the response untouched (a file or
   * JSON: read it with {@link download} or `response.json()`); outside 2xx it throws unless `throwOnError: false`.
   */
  const upload = <P extends MultipartPath>(path: P, input: UploadInput<P>, call: CallOptions = {}) =>
    send(
      'POST',
      path,
      { body: buildMultipart(input as Parameters<typeof buildMultipart>[0]), bodySerializer: (b: FormData) => b },
      call,
    );

  /** POST a JSON body (the QR routes) and answer the response untouched, as {@link upload} does. */
  const postJson = (path: keyof DocFlowPaths, body: unknown, call: CallOptions = {}) =>
    send('POST', path, { body }, call);

  /**
   * A file answer as a Blob, an ArrayBuffer or a stream, with its name from Content-Disposition: from a response
   * (of {@link upload}), or fetched from a path such as a job's result.
   */
  async function download<M extends FileReadMode = 'blob'>(
    source: Response | `/api/v1/${string}`,
    as: M = 'blob' as M,
    call: Omit<CallOptions, 'throwOnError'> = {},
  ): Promise<DownloadedFile<M>> {
    const response = source instanceof Response ? source : await send('GET', source, {}, call);
    return readFile(response, as);
  }

  /** A job as it stands (`GET /api/v1/jobs/{id}`). */
  async function getJob(id: string, call: Omit<CallOptions, 'throwOnError'> = {}): Promise<TJob> {
    const { data, error, response } = await api.GET('/api/v1/jobs/{id}', {
      params: { path: { id } },
      headers: call.headers,
      signal: call.signal,
    });
    if (!data) throw DocFlowError.fromBody(response, error);
    return data.data;
  }

  /**
   * Poll a job until it ends: resolves with the job when it succeeded, throws a {@link JobWaitError} when it failed
   * or was cancelled (`JOB_FAILED`, `JOB_CANCELLED`, with the job) or when `timeoutMs` passes first
   * (`JOB_WAIT_TIMEOUT`). `signal` stops the wait at once.
   */
  async function waitForJob(id: string, opts: WaitForJobOptions = {}): Promise<TJob> {
    const intervalMs = opts.intervalMs ?? 1_000;
    const deadline = Date.now() + (opts.timeoutMs ?? 600_000);
    for (;;) {
      opts.signal?.throwIfAborted();
      const job = await getJob(id, { signal: opts.signal });
      opts.onProgress?.(job);
      if (terminalStatuses.includes(job.status)) {
        if (job.status === 'succeeded') return job;
        const why = job.error ? `: ${job.error.code}: ${job.error.message}` : '';
        throw new JobWaitError(
          job.status === 'failed' ? 'JOB_FAILED' : 'JOB_CANCELLED',
          `job ${id} ${job.status}${why}`,
          job,
        );
      }
      const left = deadline - Date.now();
      if (left <= 0)
        throw new JobWaitError(
          'JOB_WAIT_TIMEOUT',
          `job ${id} still ${job.status} after ${opts.timeoutMs ?? 600_000} ms`,
          job,
        );
      await sleep(Math.min(intervalMs, left), opts.signal);
    }
  }

  /** The file a succeeded job made (`GET /api/v1/jobs/{id}/result`). */
  const jobResult = <M extends FileReadMode = 'blob'>(id: string, as: M = 'blob' as M, call: CallOptions = {}) =>
    download(`/api/v1/jobs/${encodeURIComponent(id)}/result`, as, call);

  return { api, upload, postJson, download, readJson, getJob, waitForJob, jobResult };
}

/** openapi-fetch has read an error answer's body: give the caller a response whose body can be read again. */
function rebuilt(response: Response, error: unknown): Response {
  const body = error === undefined ? null : typeof error === 'string' ? error : JSON.stringify(error);
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
