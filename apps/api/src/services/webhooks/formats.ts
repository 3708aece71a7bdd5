import { buffer } from 'node:stream/consumers';
import type { GotenbergWebhookFormat, JobRow } from '../../data/schema/index';
import type { JobStore } from '../jobs/store';
import { jobView } from '../jobs/view';

/**
 * What one attempt sends when a job has ended, in the shape its caller asked for: DocFlow's JSON event, or a
 * Gotenberg client's webhook. The dispatcher adds what every shape carries (the signature, the job id, the attempt)
 * and sends, records and retries them alike.
 */
export interface Delivery {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: Buffer;
  /** What the log calls it (`job.succeeded`, `webhook.error`…). */
  event: string;
  /** Told once after this delivery is settled, delivered or given up (Gotenberg's events URL); not retried. */
  followUp?: (delivered: boolean) => Delivery;
}

/** The POST a callback receives when its job ends. */
export function webhookPayload(job: JobRow, publicUrl: string) {
  const view = jobView(job);
  const abs = (u: string) => `${publicUrl}${u}`;
  return {
    event: `job.${job.status}`,
    job: {
      ...view,
      url: abs(`/api/v1/jobs/${job.id}`),
      result: view.result && { ...view.result, url: abs(view.result.url) },
    },
  };
}

function docflowDelivery(job: JobRow, publicUrl: string): Delivery {
  return {
    url: job.callbackUrl!,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify(webhookPayload(job, publicUrl))),
    event: `job.${job.status}`,
  };
}

/** Content-Disposition's filename as Go's %q writes it (Gotenberg's), with a UTF-8 form beside it when needed. */
function attachment(name: string): string {
  const quoted = JSON.stringify(name).replace(/[^\x20-\x7e]/g, '_');
  return /^[\x20-\x7e]*$/.test(name)
    ? `attachment; filename=${quoted}`
    : `attachment; filename=${quoted}; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/**
 * Gotenberg's webhook: a succeeded job's file itself, as the body of `method` to the webhook URL (its type, length and
 * name as headers, unless the caller's extra headers name it); any other end as `{status, message}` to the error URL,
 * the status and message a synchronous call would have answered (Gotenberg's plain-text error).
 */
async function gotenbergDelivery(job: JobRow, format: GotenbergWebhookFormat, store: JobStore): Promise<Delivery> {
  const common = { ...format.extraHeaders, 'gotenberg-trace': format.trace };
  const r = job.result;
  const status = r?.statusCode ?? (job.status === 'cancelled' ? 499 : 500);
  const message =
    job.errorMessage ?? (job.status === 'cancelled' ? 'The job was cancelled' : 'The job failed on the server');
  // Gotenberg's event: webhook.success once the file was delivered, webhook.error otherwise (with the error).
  const eventTo = (url: string, succeeded: boolean): Delivery => ({
    url,
    method: 'POST',
    headers: { ...common, 'content-type': 'application/json' },
    event: succeeded ? 'webhook.success' : 'webhook.error',
    body: Buffer.from(
      JSON.stringify({
        event: succeeded ? 'webhook.success' : 'webhook.error',
        correlationId: format.trace,
        timestamp: new Date().toISOString(),
        ...(succeeded ? {} : { error: { status, message } }),
      }),
    ),
  });
  const events = format.eventsUrl;
  const followUp = events
    ? (delivered: boolean) => eventTo(events, delivered && job.status === 'succeeded')
    : undefined;
  if (job.status === 'succeeded' && r) {
    const body = await buffer(await store.openResult(job.id));
    const named = Object.keys(format.extraHeaders).some((h) => h.toLowerCase() === 'content-disposition');
    return {
      url: job.callbackUrl!,
      method: format.method,
      headers: {
        ...common,
        'content-type': r.contentType,
        'content-length': String(body.length),
        ...(named || !r.fileName ? {} : { 'content-disposition': attachment(r.fileName) }),
      },
      body,
      event: `job.${job.status}`,
      followUp,
    };
  }
  // Only an events URL: the failure is told there alone.
  if (!format.errorUrl) return eventTo(events!, false);
  return {
    url: format.errorUrl,
    method: format.errorMethod,
    headers: { ...common, 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify({ status, message })),
    event: `job.${job.status}`,
    followUp: events ? () => eventTo(events, false) : undefined,
  };
}

export function deliveryOf(job: JobRow, deps: { publicUrl: string; store: JobStore }): Promise<Delivery> {
  return job.webhookFormat?.kind === 'gotenberg'
    ? gotenbergDelivery(job, job.webhookFormat, deps.store)
    : Promise.resolve(docflowDelivery(job, deps.publicUrl));
}
