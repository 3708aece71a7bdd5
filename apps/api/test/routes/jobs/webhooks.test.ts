import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import type { TJob, TWebhookDelivery } from '@docflow/contracts';
import { verifyWebhook } from '../../../src/services/webhooks/signature';
import { retryDelay } from '../../../src/services/webhooks/dispatcher';
import { processingApp } from '../../fixtures/api';
import { numberedPdf } from '../../fixtures/pdfs';
import { createUserWithApiKey } from '../../support/api-keys';
import { sleep } from '../../support/limits';
import { webhookReceiver as receiver } from '../../support/webhook-receiver';

describe('signed webhooks (callbackUrl)', () => {
  let api: Awaited<ReturnType<typeof processingApp>>;
  beforeAll(async () => {
    // The receiver is on this machine: the operator's allow-list names its address, as an intranet deployment would.
    api = await processingApp({
      allowedEndpoints: ['pdf', 'webhook'],
      env: { OUTBOUND_ALLOW_LIST: '127.0.0.1', WEBHOOK_RETRY_BASE_MS: '100' },
    });
  });
  afterAll(() => api.t.close());

  const asOwner = (url: string, method: 'GET' | 'POST' = 'GET') =>
    api.t.app.inject({ method, url: `/api/v1${url}`, headers: { 'x-api-key': api.apiKey } });
  const merge = (fields: Record<string, string>) =>
    numberedPdf(1, 'Hook').then((a) =>
      api.post('/pdf/merge', fields, [
        { field: 'files', content: a },
        { field: 'files', content: a },
      ]),
    );
  async function deliveriesOf(jobId: string, n: number): Promise<TWebhookDelivery[]> {
    const until = Date.now() + 30_000;
    for (;;) {
      const list = (await asOwner(`/jobs/${jobId}/deliveries`)).json().data.deliveries as TWebhookDelivery[];
      if (list.length >= n || Date.now() > until) return list;
      await sleep(50);
    }
  }

  it("a receiver answering 500 twice gets the third attempt; the signature verifies with the user's secret; the log shows all three", async () => {
    const r = receiver([500, 500]);
    const url = await r.url();
    try {
      const res = await merge({ callbackUrl: url });
      expect(res.statusCode).toBe(202); // a callbackUrl makes the call a job
      const { jobId } = res.json().data;
      const log = await deliveriesOf(jobId, 3);
      expect(log.map((d) => [d.attempt, d.ok, d.statusCode])).toEqual([
        [3, true, 200],
        [2, false, 500],
        [1, false, 500],
      ]);
      expect(log.every((d) => d.latencyMs >= 0 && d.url === url)).toBe(true);
      expect(r.got).toHaveLength(3);

      // The dashboard shows the secret (made on first use) to its owner.
      const { accessToken } = api;
      const secret = (
        await api.t.app.inject({
          method: 'GET',
          url: '/api/v1/webhooks/secret',
          headers: { authorization: `Bearer ${accessToken}` },
        })
      ).json().data.secret as string;
      const last = r.got[2]!;
      expect(verifyWebhook(secret, last.body, String(last.headers['x-webhook-signature']))).toBe(true);
      expect(
        verifyWebhook(secret, last.body.replace('merge', 'xerge'), String(last.headers['x-webhook-signature'])),
      ).toBe(false);
      expect(verifyWebhook('whsec_other', last.body, String(last.headers['x-webhook-signature']))).toBe(false);
      const payload = JSON.parse(last.body) as { event: string; job: TJob & { url: string } };
      expect(payload.event).toBe('job.succeeded');
      expect(payload.job).toMatchObject({ id: jobId, status: 'succeeded', endpoint: '/pdf/merge' });
      expect(payload.job.result?.url).toMatch(new RegExp(`^https?://.+/api/v1/jobs/${jobId}/result$`));
      const job = (await asOwner(`/jobs/${jobId}`)).json().data as TJob;
      expect(job.webhook).toEqual({ url, status: 'delivered', attempts: 3, resends: 0 });

      // Resend: one more attempt, logged too; after a rotation, signed with the new secret.
      const rotated = (
        await api.t.app.inject({
          method: 'POST',
          url: '/api/v1/webhooks/secret/rotate',
          headers: { authorization: `Bearer ${accessToken}` },
        })
      ).json().data.secret as string;
      expect(rotated).not.toBe(secret);
      expect((await asOwner(`/jobs/${jobId}/webhook/resend`, 'POST')).statusCode).toBe(200);
      expect(await deliveriesOf(jobId, 4)).toHaveLength(4);
      const again = r.got[3]!;
      expect(verifyWebhook(rotated, again.body, String(again.headers['x-webhook-signature']))).toBe(true);
      expect(verifyWebhook(secret, again.body, String(again.headers['x-webhook-signature']))).toBe(false);
    } finally {
      r.server.close();
    }
  });

  const shownSecret = async () =>
    (
      await api.t.app.inject({
        method: 'GET',
        url: '/api/v1/webhooks/secret',
        headers: { authorization: `Bearer ${api.accessToken}` },
      })
    ).json().data.secret as string;

  /** One delivery of a merge job to a fresh receiver: what the receiver got. */
  async function oneDelivery() {
    const r = receiver();
    try {
      const res = await merge({ callbackUrl: await r.url() });
      expect(res.statusCode).toBe(202);
      const [got] = await r.received(1);
      return { got: got!, jobId: res.json().data.jobId as string };
    } finally {
      r.server.close();
    }
  }

  it('is signed the Standard Webhooks way: the standardwebhooks library verifies it with the secret as shown', async () => {
    const { got, jobId } = await oneDelivery();
    const secret = await shownSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/); // standard base64 of 32 bytes, as the libraries decode it
    const headers = got.headers as Record<string, string>;
    expect(headers['webhook-id']).toBe(jobId);
    expect(Number(headers['webhook-timestamp'])).toBeCloseTo(Date.now() / 1000, -2);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);

    const wh = new Webhook(secret);
    expect(wh.verify(got.body, headers)).toMatchObject({ event: 'job.succeeded', job: { id: jobId } });
    // A captured delivery replayed under another id, at another time or with another body does not verify.
    expect(() => wh.verify(got.body, { ...headers, 'webhook-id': 'another-id' })).toThrow(/signature/i);
    const later = String(Number(headers['webhook-timestamp']) + 60);
    expect(() => wh.verify(got.body, { ...headers, 'webhook-timestamp': later })).toThrow(/signature/i);
    expect(() => wh.verify(got.body.replace('merge', 'xerge'), headers)).toThrow(/signature/i);
    expect(() => new Webhook(`whsec_${randomBytes(32).toString('base64')}`).verify(got.body, headers)).toThrow();
    // The deprecated header still comes, for one release, signed as before.
    expect(verifyWebhook(secret, got.body, headers['x-webhook-signature']!)).toBe(true);
  });

  it('a secret made before in base64url is shown in standard base64 (the same key) and keeps signing the old header as given', async () => {
    const key = randomBytes(32);
    const old = `whsec_${key.toString('base64url')}`;
    await api.t.database.sql.query('UPDATE webhook_secrets SET secret = $1 WHERE user_id = $2', [old, api.userId]);
    const secret = await shownSecret();
    expect(secret).toBe(`whsec_${key.toString('base64')}`);
    const { got } = await oneDelivery();
    const headers = got.headers as Record<string, string>;
    expect(new Webhook(secret).verify(got.body, headers)).toMatchObject({ event: 'job.succeeded' });
    expect(verifyWebhook(old, got.body, headers['x-webhook-signature']!)).toBe(true);
  });

  it('gives up after the last attempt, each one logged', async () => {
    const closed = receiver(Array(20).fill(503));
    const url = await closed.url();
    try {
      const t2 = await processingApp({
        allowedEndpoints: ['pdf', 'webhook'],
        env: { URL_TO_PDF_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_BASE_MS: '20', WEBHOOK_MAX_ATTEMPTS: '3' },
      });
      try {
        const a = await numberedPdf(1, 'Give');
        const res = await t2.post('/pdf/merge', { callbackUrl: url }, [
          { field: 'files', content: a },
          { field: 'files', content: a },
        ]);
        const { jobId } = res.json().data;
        const until = Date.now() + 30_000;
        let job: TJob;
        do {
          await sleep(50);
          job = (await t2.t.app.inject({ url: `/api/v1/jobs/${jobId}`, headers: { 'x-api-key': t2.apiKey } })).json()
            .data;
        } while (job.webhook?.status !== 'failed' && Date.now() < until);
        expect(job.webhook).toEqual({ url, status: 'failed', attempts: 3, resends: 0 });
        expect(closed.got).toHaveLength(3);
      } finally {
        await t2.t.close();
      }
    } finally {
      closed.server.close();
    }
  });

  it('refuses a callbackUrl outside the plan, or at a private address without the intranet switch', async () => {
    const noWebhook = await createUserWithApiKey(api.t, {
      plan: 'pro',
      customLimits: { allowedEndpoints: ['pdf'] },
    });
    const a = await numberedPdf(1, 'Plan');
    const { form } = await import('../../fixtures/multipart');
    const f = form({ callbackUrl: 'https://example.com/hook' }, [
      { field: 'files', content: a },
      { field: 'files', content: a },
    ]);
    const refused = await api.t.app.inject({
      method: 'POST',
      url: '/api/v1/pdf/merge',
      payload: f.payload,
      headers: { ...f.headers, 'x-api-key': noWebhook.apiKey },
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'ENDPOINT_NOT_ALLOWED' });
    expect(refused.json().error).toMatch(/callbackUrl/);

    const strict = await processingApp({ allowedEndpoints: ['pdf', 'webhook'] });
    try {
      for (const target of [
        'http://127.0.0.1:9/hook',
        'http://169.254.169.254/latest/meta-data',
        'file:///etc/passwd',
      ]) {
        const res = await strict.post('/pdf/merge', { callbackUrl: target }, [
          { field: 'files', content: a },
          { field: 'files', content: a },
        ]);
        expect(res.statusCode, target).toBeGreaterThanOrEqual(400);
        expect(res.statusCode, target).toBeLessThan(500);
        expect(await strict.t.app.db.query.jobs.findMany()).toHaveLength(0);
      }
    } finally {
      await strict.t.close();
    }
  });

  it('retries back off exponentially with ±20 % jitter', () => {
    expect(retryDelay(1, 1000, () => 0.5)).toBe(1000);
    expect(retryDelay(2, 1000, () => 0.5)).toBe(2000);
    expect(retryDelay(4, 1000, () => 0.5)).toBe(8000);
    expect(retryDelay(3, 1000, () => 0)).toBe(3200);
    expect(retryDelay(3, 1000, () => 1)).toBe(4800);
  });
});
