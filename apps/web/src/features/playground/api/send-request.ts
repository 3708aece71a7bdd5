import { createDocFlowClient, type DocFlowPaths, type MultipartPath, type UploadFile } from '@docflow/client';
import { messages } from '@/config/messages';
import { currentLanguage } from '@/i18n';
import type { CallPlan } from '../utils/request-plan';

/**
 * Processing calls can run for a while (conversions, OCR); the dashboard client's 10 s would cut them short. The
 * spec is silent: two minutes, then the call counts as failed.
 */
export const PLAYGROUND_TIMEOUT_MS = 120_000;

export interface FileSummary {
  name: string;
  type: string;
  size: number;
  /** An object URL of the bytes; the caller revokes it. */
  url: string;
}

export interface PlaygroundResponse {
  /** HTTP status; 0 when no answer came. */
  status: number;
  statusText: string;
  durationMs: number;
  /** The text shown: the answer's JSON pretty-printed, or a summary of a binary answer. */
  body: string;
  /** Green when the answer holds success: true (spec-2 §2). */
  success: boolean;
  requestId?: string;
  file?: FileSummary;
  /** A refused call's `details` (its `fields` are shown beside the form's fields). */
  details?: unknown;
  /** A refused call's machine code (INVALID_INPUT, FILE_TOO_LARGE…): with `details`, it says which field is at fault. */
  code?: string;
}

/** The spec's answer when the call itself fails (network, timeout). */
const callFailedBody = () => ({ success: false, message: messages.playground.callFailed });

const hasSuccessMarker = (v: unknown): boolean =>
  typeof v === 'object' && v !== null && (v as { success?: unknown }).success === true;

/**
 * The call through the DocFlow client (@docflow/client): its multipart upload for file routes, a JSON POST for the
 * QR routes, and its download helper for file answers. The plan's headers are sent as they are (what the code
 * examples show is what is sent), no cookies, and no retries: the playground shows the server's answer, a 429 too.
 */
export async function callApi(plan: CallPlan, signal: AbortSignal): Promise<Response> {
  const url = new URL(plan.url, window.location.origin);
  const client = createDocFlowClient({ baseUrl: url.origin, credentials: 'omit', retry: false });
  // The plan's headers, and the interface's language: the server words its errors in it (codes never change).
  const headers = { ...Object.fromEntries(plan.headers), 'Accept-Language': currentLanguage() };
  const call = { headers, signal, throwOnError: false };
  // The plan's path is one of the catalogue's routes, known at run time (config/endpoints.ts), not as a literal.
  if (plan.contentType === 'application/json')
    return client.postJson(url.pathname as keyof DocFlowPaths, plan.json ?? {}, call);
  const parts = plan.files.flatMap((p): Array<[string, UploadFile]> => (p.file ? [[p.field, p.file]] : []));
  return client.upload(url.pathname as MultipartPath, { fields: Object.fromEntries(plan.fields), parts }, call);
}

/**
 * What the page shows of one answer: JSON pretty-printed (green with success: true), or a file as a download
 * summary with its bytes behind an object URL. A job's result is read the same way (api/send-job.ts).
 */
export async function readAnswer(
  res: Response,
  plan: CallPlan,
  opts: { started: number; createObjectUrl?: (b: Blob) => string },
): Promise<PlaygroundResponse> {
  const elapsed = () => Math.round(performance.now() - opts.started);
  const type = res.headers.get('content-type') ?? '';
  const base = {
    status: res.status,
    statusText: res.statusText,
    requestId: res.headers.get('x-request-id') ?? undefined,
  };
  if (/\bjson\b/i.test(type) || type.startsWith('text/')) {
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    const { details, code } = (parsed ?? {}) as { details?: unknown; code?: unknown };
    return {
      ...base,
      durationMs: elapsed(),
      body: parsed === undefined ? text : JSON.stringify(parsed, null, 2),
      success: hasSuccessMarker(parsed),
      ...(details !== undefined && !res.ok ? { details } : {}),
      ...(typeof code === 'string' && !res.ok ? { code } : {}),
    };
  }
  // A file: shown as a download summary (spec-2 §2), not as bytes.
  const { data: blob, fileName } = await createDocFlowClient().download(res, 'blob');
  const name = fileName ?? (plan.output.kind === 'file' ? plan.output.fileName : 'response.bin');
  const mime = blob.type || type || 'application/octet-stream';
  const summary = { success: res.ok, status: res.status, file: { name, type: mime, size: blob.size } };
  return {
    ...base,
    durationMs: elapsed(),
    body: JSON.stringify(summary, null, 2),
    success: res.ok,
    file: { name, type: mime, size: blob.size, url: (opts.createObjectUrl ?? URL.createObjectURL)(blob) },
  };
}

/** The answer shown when no answer came (network, timeout). */
export const noAnswer = (durationMs: number): PlaygroundResponse => ({
  status: 0,
  statusText: '',
  durationMs,
  body: JSON.stringify(callFailedBody(), null, 2),
  success: false,
});

/** Send the call with the API key only: never the dashboard's session token (a processing key is not a session). */
export async function sendPlaygroundRequest(
  plan: CallPlan,
  opts: { signal?: AbortSignal; timeoutMs?: number; createObjectUrl?: (b: Blob) => string } = {},
): Promise<PlaygroundResponse> {
  const started = performance.now();
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), opts.timeoutMs ?? PLAYGROUND_TIMEOUT_MS);
  const onAbort = () => controller.abort();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const res = await callApi(plan, controller.signal);
    return await readAnswer(res, plan, { started, createObjectUrl: opts.createObjectUrl });
  } catch (err) {
    if (opts.signal?.aborted) throw err;
    return noAnswer(elapsed());
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
  }
}
