import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TJob, TWebhookDelivery } from '@docflow/contracts';
import { verifyStandardWebhook, verifyWebhook } from '../../../src/services/webhooks/signature';
import { numberedPdf, pageCount, pagesText } from '../../fixtures/pdfs';
import { saveBody } from '../../fixtures/results';
import { createUserWithApiKey } from '../../support/api-keys';
import { webhookReceiver } from '../../support/webhook-receiver';
import { gotenbergAppForSuite, pdfFile } from './gotenberg-api';

/**
 * Gotenberg's webhook headers on DocFlow's jobs: the call answers 204, the job runs through the same route, and a
 * receiver started here gets the file itself (or the error JSON at the error URL), Gotenberg's way, signed DocFlow's
 * way; the job is in GET /jobs with its deliveries.
 */
const api = gotenbergAppForSuite({
  allowedEndpoints: ['pdf', 'webhook'],
  // The receiver is on this machine: the intranet switch lets webhooks reach it.
  env: { URL_TO_PDF_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_BASE_MS: '100' },
});

const receiver = webhookReceiver();
beforeAll(() => receiver.url());
afterAll(() => receiver.close());

const twoPdfs = async () => [
  pdfFile(await numberedPdf(1, 'Second'), '2_b.pdf'),
  pdfFile(await numberedPdf(2, 'First'), '1_a.pdf'),
];
const asOwner = (url: string) =>
  api.t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers: { 'x-api-key': api.apiKey } });
const textError = (res: { statusCode: number; body: string; headers: Record<string, unknown> }) => {
  expect(res.headers['content-type']).toBe('text/plain; charset=UTF-8');
  return { status: res.statusCode, message: res.body };
};
const jobCount = async () => (await api.t.app.db.query.jobs.findMany()).length;

async function deliveries(jobId: string): Promise<TWebhookDelivery[]> {
  for (const until = Date.now() + 30_000; ;) {
    const list = (await asOwner(`/jobs/${jobId}/deliveries`)).json().data.deliveries as TWebhookDelivery[];
    if (list.length || Date.now() > until) return list;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('Gotenberg-Webhook-* headers', () => {
  it('204 at once; the merged PDF is the body of a PUT to the webhook URL, with the extra headers, signed', async () => {
    const before = receiver.got.length;
    const url = await receiver.url('/done');
    const trace = `hook-trace-${Date.now()}`;
    const res = await api.gotenberg('/forms/pdfengines/merge', {}, await twoPdfs(), {
      authorization: api.basic,
      'gotenberg-trace': trace,
      'gotenberg-output-filename': 'merged',
      'gotenberg-webhook-url': url,
      'gotenberg-webhook-error-url': await receiver.url('/failed'),
      'gotenberg-webhook-method': 'put',
      'gotenberg-webhook-extra-http-headers': JSON.stringify({ 'X-Tenant': 'acme', Authorization: 'Bearer t0k' }),
    });
    expect(res.statusCode, res.body).toBe(204);
    expect(res.body).toBe('');

    const got = (await receiver.received(before + 1))[before]!;
    expect(got.method).toBe('PUT');
    expect(got.path).toBe('/done');
    expect(got.headers['content-type']).toBe('application/pdf');
    expect(got.headers['content-disposition']).toBe('attachment; filename="merged.pdf"');
    expect(got.headers['content-length']).toBe(String(got.raw.length));
    expect(got.headers['x-tenant']).toBe('acme');
    expect(got.headers.authorization).toBe('Bearer t0k');
    expect(got.headers['gotenberg-trace']).toBe(trace);
    const file = saveBody(got.raw);
    expect(pageCount(file)).toBe(3);
    expect(pagesText(file).map((t) => t.split('\n')[0]?.trim())).toEqual([
      'First Page 1',
      'First Page 2',
      'Second Page 1',
    ]);

    // Signed over the file's bytes with the user's secret, as DocFlow's own webhooks are.
    const secret = (
      await api.t.app.inject({
        method: 'GET',
        url: '/api/v1/webhooks/secret',
        headers: { authorization: `Bearer ${api.accessToken}` },
      })
    ).json().data.secret as string;
    // Standard Webhooks headers over the file's raw bytes: another id or another byte fails.
    expect(verifyStandardWebhook(secret, got.raw, got.headers)).toBe(true);
    expect(verifyStandardWebhook(secret, got.raw, { ...got.headers, 'webhook-id': 'another-id' })).toBe(false);
    expect(verifyStandardWebhook(secret, Buffer.concat([got.raw, Buffer.from(' ')]), got.headers)).toBe(false);
    const signature = String(got.headers['x-webhook-signature']);
    expect(verifyWebhook(secret, got.raw, signature)).toBe(true);
    expect(verifyWebhook(secret, Buffer.concat([got.raw, Buffer.from(' ')]), signature)).toBe(false);

    // A job like any other: listed, its result kept, its delivery logged.
    const jobId = String(got.headers['x-webhook-id']);
    const list = (await asOwner('/jobs')).json().data.jobs as TJob[];
    const job = list.find((j) => j.id === jobId);
    expect(job).toMatchObject({ status: 'succeeded', endpoint: '/pdf/merge', result: { pages: 3 } });
    const log = await deliveries(jobId);
    expect(log.map((d) => [d.url, d.ok, d.statusCode, d.event])).toEqual([[url, true, 200, 'job.succeeded']]);
  });

  it('a failing call posts {status, message} to the error URL (its method), with the extra headers', async () => {
    const before = receiver.got.length;
    const res = await api.gotenberg('/forms/pdfengines/merge', { pdfa: 'PDF/A-4' }, await twoPdfs(), {
      authorization: api.basic,
      'gotenberg-webhook-url': await receiver.url('/done'),
      'gotenberg-webhook-error-url': await receiver.url('/failed'),
      'gotenberg-webhook-error-method': 'PATCH',
      'gotenberg-webhook-extra-http-headers': '{"X-Tenant": "acme"}',
    });
    expect(res.statusCode, res.body).toBe(204);
    const got = (await receiver.received(before + 1))[before]!;
    expect(got.method).toBe('PATCH');
    expect(got.path).toBe('/failed');
    expect(got.headers['content-type']).toBe('application/json');
    expect(got.headers['x-tenant']).toBe('acme');
    const body = JSON.parse(got.body) as { status: number; message: string };
    expect(body.status).toBe(400);
    expect(body.message).toMatch(/^The requested PDF format is not supported/);
    const job = (await asOwner(`/jobs/${String(got.headers['x-webhook-id'])}`)).json().data as TJob;
    expect(job).toMatchObject({ status: 'failed', error: { code: 'BAD_REQUEST', message: body.message } });
    expect(job.webhook?.url).toBe(await receiver.url('/failed')); // where the failure was told
    expect(receiver.got.slice(before).map((g) => g.path)).toEqual(['/failed']);
  });

  it('Gotenberg-Webhook-Events-Url: webhook.success after the file; webhook.error with the error, alone without an error URL', async () => {
    const before = receiver.got.length;
    const trace = `events-trace-${Date.now()}`;
    const ok = await api.gotenberg('/forms/pdfengines/merge', {}, await twoPdfs(), {
      authorization: api.basic,
      'gotenberg-trace': trace,
      'gotenberg-webhook-url': await receiver.url('/done'),
      'gotenberg-webhook-events-url': await receiver.url('/events'),
      'gotenberg-webhook-extra-http-headers': '{"X-Tenant": "acme"}',
    });
    expect(ok.statusCode, ok.body).toBe(204);
    const [file, success] = (await receiver.received(before + 2)).slice(before);
    expect([file!.path, success!.path]).toEqual(['/done', '/events']);
    expect(success!.headers['content-type']).toBe('application/json');
    expect(success!.headers['gotenberg-trace']).toBe(trace);
    expect(success!.headers['x-tenant']).toBe('acme');
    const told = JSON.parse(success!.body) as Record<string, unknown>;
    expect(told).toMatchObject({ event: 'webhook.success', correlationId: trace });
    expect(Number.isNaN(Date.parse(String(told.timestamp)))).toBe(false);
    const jobId = String(file!.headers['x-webhook-id']);
    for (let until = Date.now() + 10_000; (await deliveries(jobId)).length < 2 && Date.now() < until;)
      await new Promise((r) => setTimeout(r, 50));
    expect((await deliveries(jobId)).map((d) => d.event).sort()).toEqual(['job.succeeded', 'webhook.success']);

    const failing = receiver.got.length;
    const bad = await api.gotenberg('/forms/pdfengines/merge', { pdfa: 'PDF/A-4' }, await twoPdfs(), {
      authorization: api.basic,
      'gotenberg-webhook-url': await receiver.url('/done'),
      'gotenberg-webhook-events-url': await receiver.url('/events'),
    });
    expect(bad.statusCode, bad.body).toBe(204);
    const error = (await receiver.received(failing + 1))[failing]!;
    expect(error.path).toBe('/events');
    expect(JSON.parse(error.body)).toMatchObject({
      event: 'webhook.error',
      error: { status: 400, message: expect.stringMatching(/^The requested PDF format is not supported/) },
    });
    await new Promise((r) => setTimeout(r, 300));
    expect(receiver.got.slice(failing).map((g) => g.path)).toEqual(['/events']);
  });

  it('400 in plain text, no job: a header DocFlow cannot honour is named', async () => {
    const jobs = await jobCount();
    const url = await receiver.url('/done');
    const cases: Array<[Record<string, string>, RegExp]> = [
      [
        { 'gotenberg-webhook-url': url },
        /At least one of 'Gotenberg-Webhook-Error-Url' or 'Gotenberg-Webhook-Events-Url' headers must be provided/,
      ],
      [{ 'gotenberg-webhook-error-url': url }, /'Gotenberg-Webhook-Url' is required/],
      [{ 'gotenberg-webhook-url': url, 'gotenberg-webhook-colour': 'red' }, /'gotenberg-webhook-colour' is not/],
      [
        { 'gotenberg-webhook-url': url, 'gotenberg-webhook-error-url': url, 'gotenberg-webhook-method': 'GET' },
        /'Gotenberg-Webhook-Method' header value: expected 'POST', 'PATCH' or 'PUT', but got 'GET'/,
      ],
      [
        {
          'gotenberg-webhook-url': url,
          'gotenberg-webhook-error-url': url,
          'gotenberg-webhook-extra-http-headers': '{"Host": "intranet"}',
        },
        /'Host' cannot be set by the caller/,
      ],
      [
        {
          'gotenberg-webhook-url': url,
          'gotenberg-webhook-error-url': url,
          'gotenberg-webhook-extra-http-headers': '{"Webhook-Id": "forged"}',
        },
        /'Webhook-Id' cannot be set by the caller/,
      ],
      [
        {
          'gotenberg-webhook-url': url,
          'gotenberg-webhook-error-url': url,
          'gotenberg-webhook-extra-http-headers': '[',
        },
        /Gotenberg-Webhook-Extra-Http-Headers.*JSON object/,
      ],
    ];
    for (const [headers, message] of cases) {
      const res = await api.gotenberg('/forms/pdfengines/merge', {}, await twoPdfs(), {
        authorization: api.basic,
        ...headers,
      });
      expect(textError(res)).toMatchObject({ status: 400, message: expect.stringMatching(message) });
    }
    expect(await jobCount()).toBe(jobs);
  });

  it('403 in plain text for a key whose plan has no webhooks; nothing stored', async () => {
    const jobs = await jobCount();
    const other = await createUserWithApiKey(api.t, { plan: 'pro', customLimits: { allowedEndpoints: ['pdf'] } });
    const res = await api.gotenberg('/forms/pdfengines/merge', {}, await twoPdfs(), {
      authorization: `Basic ${Buffer.from(`gotenberg:${other.apiKey}`).toString('base64')}`,
      'gotenberg-webhook-url': await receiver.url('/done'),
      'gotenberg-webhook-error-url': await receiver.url('/failed'),
    });
    const e = textError(res);
    expect(e.status).toBe(403);
    expect(e.message).toMatch(/^Gotenberg-Webhook-Url: webhooks are not included/);
    expect(await jobCount()).toBe(jobs);
  });
});

describe('Gotenberg-Webhook-* headers without the intranet switch', () => {
  const strict = gotenbergAppForSuite({ allowedEndpoints: ['pdf', 'webhook'] });

  it('403 in plain text for a private webhook or error URL, named; no job', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [
        {
          'gotenberg-webhook-url': 'http://127.0.0.1:9/done',
          'gotenberg-webhook-error-url': 'https://93.184.215.14/e',
        },
        'Gotenberg-Webhook-Url',
      ],
      [
        {
          'gotenberg-webhook-url': 'https://93.184.215.14/done',
          'gotenberg-webhook-error-url': 'http://169.254.169.254/latest/meta-data',
        },
        'Gotenberg-Webhook-Error-Url',
      ],
    ];
    for (const [headers, named] of cases) {
      const res = await strict.gotenberg('/forms/pdfengines/merge', {}, await twoPdfs(), {
        authorization: strict.basic,
        ...headers,
      });
      const e = textError(res);
      expect(e.status).toBe(403);
      expect(e.message).toMatch(new RegExp(`^${named}: the host ".+" resolves to a private`));
    }
    expect(await strict.t.app.db.query.jobs.findMany()).toHaveLength(0);
  });
});
