import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TJob, TWebhookDelivery } from '@docflow/contracts';
import { webhookResendLog } from '../../../src/data/schema/index';
import { processingApp } from '../../fixtures/api';
import { numberedPdf } from '../../fixtures/pdfs';
import { sleep } from '../../support/limits';
import { webhookReceiver as receiver } from '../../support/webhook-receiver';

// Issue 28: resends of a job's webhook were unlimited (30 resends → 30 deliveries). They are limited over a rolling
// hour per job and per account (here 2 and 3, set through the environment), answered 429 with Retry-After beyond,
// and counted on the job.

describe('429: webhook resends are limited per job and per account, and counted', () => {
  let api: Awaited<ReturnType<typeof processingApp>>;
  const hook = receiver();
  beforeAll(async () => {
    api = await processingApp({
      allowedEndpoints: ['pdf', 'webhook'],
      env: {
        URL_TO_PDF_ALLOW_PRIVATE: 'true',
        WEBHOOK_RESENDS_PER_JOB_HOUR: '2',
        WEBHOOK_RESENDS_PER_ACCOUNT_HOUR: '3',
      },
    });
  }, 60_000);
  afterAll(async () => {
    await hook.close();
    await api?.t.close();
  });

  const asOwner = (url: string, method: 'GET' | 'POST' = 'GET') =>
    api.t.app.inject({ method, url: `/api/v1${url}`, headers: { 'x-api-key': api.apiKey } });
  const resend = (id: string) => asOwner(`/jobs/${id}/webhook/resend`, 'POST');

  async function deliveredJob(): Promise<string> {
    const a = await numberedPdf(1, 'Hook');
    const res = await api.post('/pdf/merge', { callbackUrl: await hook.url() }, [
      { field: 'files', content: a },
      { field: 'files', content: a },
    ]);
    expect(res.statusCode, res.body).toBe(202);
    const id = res.json().data.jobId as string;
    await deliveries(id, 1);
    return id;
  }
  async function deliveries(id: string, n: number): Promise<TWebhookDelivery[]> {
    const until = Date.now() + 30_000;
    for (;;) {
      const list = (await asOwner(`/jobs/${id}/deliveries`)).json().data.deliveries as TWebhookDelivery[];
      if (list.length >= n || Date.now() > until) return list;
      await sleep(50);
    }
  }

  it('the third resend of a job in the hour is refused; the job counts its two; the fourth of the account too', async () => {
    const first = await deliveredJob();
    expect((await resend(first)).statusCode).toBe(200);
    await deliveries(first, 2);
    expect((await resend(first)).statusCode).toBe(200);
    await deliveries(first, 3);

    const third = await resend(first);
    expect(third.statusCode).toBe(429);
    expect(third.json()).toMatchObject({
      code: 'WEBHOOK_RESEND_LIMITED',
      details: { scope: 'job', limit: 2 },
    });
    const retryAfter = Number(third.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    expect(third.json().details.retryAfter).toBe(retryAfter);

    // Only the two accepted resends were delivered: the first delivery and two more.
    await sleep(300);
    expect(await deliveries(first, 3)).toHaveLength(3);
    const job = (await asOwner(`/jobs/${first}`)).json().data as TJob;
    expect(job.webhook).toMatchObject({ status: 'delivered', resends: 2 });

    // Another job has its own two, but the account has one left of its three.
    const second = await deliveredJob();
    expect((await resend(second)).statusCode).toBe(200);
    const refused = await resend(second);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ code: 'WEBHOOK_RESEND_LIMITED', details: { scope: 'account', limit: 3 } });
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(((await asOwner(`/jobs/${second}`)).json().data as TJob).webhook).toMatchObject({ resends: 1 });
  });

  it('the window rolls: resends older than an hour no longer count', async () => {
    // The account's window is full from the test above; age its resends past the hour.
    await api.t.app.db.update(webhookResendLog).set({ createdAt: new Date(Date.now() - 3_601_000) });
    const job = await deliveredJob();
    expect((await resend(job)).statusCode).toBe(200);
  });
});
