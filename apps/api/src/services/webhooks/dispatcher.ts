import type { FastifyBaseLogger } from 'fastify';
import { checkUrl, type CheckUrlOptions } from '../../core/net/public-address';
import { pinnedRequest } from '../../core/net/pinned-request';
import type { Db } from '../../data/db';
import type { JobRow } from '../../data/schema/index';
import type { JobStore } from '../jobs/store';
import { claimDueWebhook, recordDelivery, settleWebhook } from './deliveries';
import { deliveryOf, type Delivery } from './formats';
import { webhookSecret } from './secrets';
import { signWebhook, standardWebhookHeaders } from './signature';

export interface WebhookDispatcherOptions {
  /** Attempts of one webhook before it is given up (default 8). */
  maxAttempts: number;
  /** The first retry's delay; each next one doubles, with ±20 % jitter (default 2 s: 8 attempts span ~4 min). */
  retryBaseMs: number;
  /** The same rules as URL conversion (URL_TO_PDF_ALLOW_PRIVATE, OUTBOUND_ALLOW_LIST). */
  urlRules: Pick<CheckUrlOptions, 'allowPrivate' | 'lookup' | 'allowList'>;
  /** Absolute links in the payload (the job's result). */
  publicUrl: string;
  /** Where a Gotenberg webhook's file is read from (the job's result). */
  store: JobStore;
  timeoutMs?: number;
  pollMs?: number;
}

/** The delay before attempt `n + 1`, after `n` attempts: base·2^(n-1), ±20 % so that receivers are not hit in step. */
export function retryDelay(attempts: number, baseMs: number, random = Math.random): number {
  return Math.round(baseMs * 2 ** (attempts - 1) * (0.8 + 0.4 * random()));
}

/**
 * Sends due webhooks (any node may: claims are exclusive), one attempt at a time per claim, each attempt recorded
 * with its status, latency and answer code; failures are retried with exponential backoff and jitter until the
 * attempts are used up. The URL is checked again at every attempt (a name may have moved to a private address).
 * Whatever its shape (formats.ts), every delivery is signed with the user's secret (Standard Webhooks, signature.ts).
 */
interface Answer {
  statusCode: number | null;
  error: string | null;
  ms: number;
}

const failed = (err: unknown): Answer => ({
  statusCode: null,
  error: err instanceof Error ? err.message : String(err),
  ms: 0,
});

export class WebhookDispatcher {
  private timer: NodeJS.Timeout | null = null;
  private busy = false;
  private again = false;
  /** Until start(): nodes that run no jobs send no webhooks either. */
  private stopped = true;
  private inFlight: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly opts: WebhookDispatcherOptions,
    private readonly log: FastifyBaseLogger,
  ) {}

  start(): void {
    this.stopped = false;
    this.timer = setInterval(() => this.kick(), this.opts.pollMs ?? 1000);
    this.timer.unref();
    this.kick();
  }

  kick(): void {
    if (this.stopped) return;
    if (this.busy) {
      this.again = true;
      return;
    }
    this.busy = true;
    this.inFlight = (async () => {
      try {
        do {
          this.again = false;
          for (let job = await claimDueWebhook(this.db); job && !this.stopped; job = await claimDueWebhook(this.db))
            await this.attempt(job);
        } while (this.again && !this.stopped);
      } catch (err) {
        this.log.warn({ err }, 'webhook dispatch failed');
      } finally {
        this.busy = false;
      }
    })();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.inFlight;
  }

  private async attempt(job: JobRow): Promise<void> {
    let delivery: Delivery | undefined;
    let answer: Answer;
    try {
      delivery = await deliveryOf(job, this.opts);
      answer = await this.send(job, delivery);
    } catch (err) {
      answer = failed(err);
    }
    const ok = await this.record(job, delivery, answer);
    if (!ok && job.webhookAttempts < this.opts.maxAttempts) {
      const delay = retryDelay(job.webhookAttempts, this.opts.retryBaseMs);
      await settleWebhook(this.db, job.id, { retryAt: new Date(Date.now() + delay) });
      // Due before the next poll: looked at when due, not up to a poll later.
      if (delay < (this.opts.pollMs ?? 1000)) setTimeout(() => this.kick(), delay + 5).unref();
      return;
    }
    await settleWebhook(this.db, job.id, { status: ok ? 'delivered' : 'failed' });
    // Settled: the follow-up (Gotenberg's event) is told once and logged, never retried (Gotenberg's fire-and-forget).
    const next = delivery?.followUp?.(ok);
    if (next) await this.record(job, next, await this.send(job, next).catch(failed));
  }

  /** One request, signed, to the very address its URL was checked to resolve to. */
  private async send(job: JobRow, delivery: Delivery): Promise<Answer> {
    const { secret, storedSecret } = await webhookSecret(this.db, job.userId);
    const checked = await checkUrl(delivery.url, this.opts.urlRules);
    const at = new Date();
    return pinnedRequest(checked, {
      method: delivery.method,
      timeoutMs: this.opts.timeoutMs ?? 10_000,
      headers: {
        'user-agent': 'DocFlow-webhooks/1',
        ...delivery.headers,
        // The job's id names the message: a resend or a retry is the same message, told again.
        ...standardWebhookHeaders(secret, job.id, delivery.body, at),
        'x-webhook-signature': signWebhook(storedSecret, delivery.body, at), // deprecated: see signature.ts
        'x-webhook-id': job.id,
        'x-webhook-attempt': String(job.webhookAttempts),
      },
      body: delivery.body,
    });
  }

  /** One attempt in the job's delivery log; whether it was answered 2xx. */
  private async record(job: JobRow, delivery: Delivery | undefined, answer: Answer): Promise<boolean> {
    const ok = answer.statusCode !== null && answer.statusCode >= 200 && answer.statusCode < 300;
    await recordDelivery(this.db, {
      jobId: job.id,
      userId: job.userId,
      url: delivery?.url ?? job.callbackUrl!,
      event: delivery?.event ?? `job.${job.status}`,
      attempt: job.webhookAttempts,
      ok,
      statusCode: answer.statusCode,
      latencyMs: Math.round(answer.ms),
      error: ok ? null : (answer.error ?? `answered ${answer.statusCode}`),
    });
    return ok;
  }
}
