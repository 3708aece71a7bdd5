import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobs, usageEvents, users, webhookDeliveries } from '../../../src/data/schema/index';
import type { OperationName } from '../../../src/core/interfaces';
import { findJob } from '../../../src/services/jobs/repository';
import { buildTestApp, type TestApp } from '../../helper';
import { form, type FormFile } from '../../fixtures/multipart';
import { numberedPdf } from '../../fixtures/pdfs';
import { createUserWithApiKey } from '../../support/api-keys';
import { sleep } from '../../support/limits';
import { webhookReceiver } from '../../support/webhook-receiver';

/**
 * The gate is the same whatever the door: a Gotenberg form draws on the groups and counts the calls its work is on
 * the v1 routes, a queued job passes the key and account checks again when it starts, and a job the server fails is
 * given back like the same synchronous call.
 */
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp({ env: { URL_TO_PDF_ALLOW_PRIVATE: 'true' } });
}, 60_000);
afterAll(() => t?.close());

const send = (url: string, key: string, fields: Record<string, string>, files: FormFile[]) => {
  const f = form(fields, files);
  return t.app.inject({ method: 'POST', url, payload: f.payload, headers: { ...f.headers, 'x-api-key': key } });
};
const ping = (key: string) => t.app.inject({ method: 'GET', url: '/api/v1/ping', headers: { 'x-api-key': key } });

/** The key's usage events once `n` of them match (each is written as its answer ends, a moment after inject). */
async function eventsOf(keyId: string, n = 0, match: (e: typeof usageEvents.$inferSelect) => boolean = () => true) {
  for (const until = Date.now() + 10_000; ; await sleep(50)) {
    await t.app.apiKeyGuard.meter.flush();
    const rows = (await t.app.db.select().from(usageEvents).where(eq(usageEvents.keyId, keyId))).filter(match);
    if (rows.length >= n || Date.now() > until) return rows;
  }
}

async function endedJob(id: string, timeoutMs = 60_000) {
  for (const until = Date.now() + timeoutMs; ; await sleep(50)) {
    const job = await findJob(t.app.db, id);
    if (job && !['queued', 'running'].includes(job.status)) return job;
    if (Date.now() > until) throw new Error(`job ${id} still ${job?.status}`);
  }
}

const text = (name: string, body: string): FormFile => ({
  field: 'files',
  filename: name,
  content: Buffer.from(body),
  contentType: 'text/plain',
});

describe('Gotenberg routes draw on the groups their work needs', () => {
  it('a Free key (conversion only) converting with merge and encryption: 403 ENDPOINT_NOT_ALLOWED, as /pdf/protect', async () => {
    const free = await createUserWithApiKey(t, { plan: 'free' });
    const merged = await send(
      '/gotenberg/forms/libreoffice/convert',
      free.apiKey,
      { merge: 'true', userPassword: 'secret' },
      [text('a.txt', 'Alpha'), text('b.txt', 'Beta')],
    );
    expect(merged.statusCode).toBe(403);
    expect(merged.body).toMatch(/pdf endpoints are not included in the Free plan/);
    const finishing: Array<Record<string, string>> = [
      { userPassword: 'secret' },
      { metadata: '{"Title":"x"}' },
      { flatten: 'true' },
    ];
    for (const fields of finishing) {
      const one = await send('/gotenberg/forms/libreoffice/convert', free.apiKey, fields, [text('a.txt', 'Alpha')]);
      expect(one.statusCode).toBe(403);
    }
    // A file attached to the output (embeds) is /pdf/attach's work too.
    const embedded = await send('/gotenberg/forms/libreoffice/convert', free.apiKey, {}, [
      text('a.txt', 'Alpha'),
      { ...text('note.txt', 'Attached'), field: 'embeds' },
    ]);
    expect(embedded.statusCode).toBe(403);
    const v1 = await send('/api/v1/pdf/protect', free.apiKey, { userPassword: 'secret' }, [
      { field: 'file', content: await numberedPdf(1) },
    ]);
    expect(v1.statusCode).toBe(403);
    expect(v1.json().code).toBe('ENDPOINT_NOT_ALLOWED');
    const events = await eventsOf(free.keyId, 6, (e) => e.statusCode === 403);
    expect(events.map((e) => e.errorCode)).toEqual(Array(6).fill('ENDPOINT_NOT_ALLOWED'));
  }, 60_000);

  it('the same Free key converting one file with no PDF finishing is served', async () => {
    const free = await createUserWithApiKey(t, { plan: 'free' });
    const res = await send('/gotenberg/forms/libreoffice/convert', free.apiKey, {}, [text('a.txt', 'Alpha')]);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
  }, 60_000);
});

describe('N files through a Gotenberg route are N calls, as N calls of the v1 endpoint', () => {
  const tenPdfs = async () =>
    Promise.all(
      Array.from({ length: 10 }, async (_, i) => ({
        field: 'files',
        filename: `${i + 1}_doc.pdf`,
        content: await numberedPdf(1, `Doc${i}`),
      })),
    );

  it('ten files with room for nine calls: 429, nothing done; with room for ten: 200, ten counted events', async () => {
    const files = await tenPdfs();
    const nine = await createUserWithApiKey(t, {
      plan: 'pro',
      customLimits: { maxRequestsPerMinute: 9, allowedEndpoints: ['pdf'] },
    });
    const refused = await send('/gotenberg/forms/pdfengines/metadata/read', nine.apiKey, {}, files);
    expect(refused.statusCode).toBe(429);
    // Only the refused call itself stayed counted: eight calls of the minute are left.
    expect((await ping(nine.apiKey)).json().data.remaining.minute).toBe(7);

    const ten = await createUserWithApiKey(t, {
      plan: 'pro',
      customLimits: { maxRequestsPerMinute: 10, allowedEndpoints: ['pdf'] },
    });
    const served = await send('/gotenberg/forms/pdfengines/metadata/read', ten.apiKey, {}, files);
    expect(served.statusCode).toBe(200);
    expect(Object.keys(served.json())).toHaveLength(10);
    expect((await ping(ten.apiKey)).statusCode).toBe(429);
    const events = await eventsOf(ten.keyId, 10, (e) => e.endpoint === '/pdf/metadata');
    expect(events).toHaveLength(10);
    expect(events.every((e) => e.counted && e.statusCode === 200)).toBe(true);
  }, 60_000);

  it('a merge of ten files is one call, as POST /pdf/merge', async () => {
    const key = await createUserWithApiKey(t, {
      plan: 'pro',
      customLimits: { maxRequestsPerMinute: 2, allowedEndpoints: ['pdf'] },
    });
    const res = await send('/gotenberg/forms/pdfengines/merge', key.apiKey, {}, await tenPdfs());
    expect(res.statusCode).toBe(200);
    expect((await ping(key.apiKey)).json().data.remaining.minute).toBe(0);
  }, 60_000);
});

describe('a queued job passes the gate again when it starts', () => {
  it("a deactivated user's queued job is cancelled: it runs nothing and sends no webhook", async () => {
    const owner = await createUserWithApiKey(t, {
      plan: 'pro',
      customLimits: { allowedEndpoints: ['pdf', 'webhook'] },
    });
    const receiver = webhookReceiver();
    const callbackUrl = await receiver.url();
    await t.app.jobs.runner.stop();
    let jobId: string;
    try {
      const pdf = await numberedPdf(1, 'Queued');
      const res = await send('/api/v1/pdf/merge', owner.apiKey, { callbackUrl }, [
        { field: 'files', content: pdf },
        { field: 'files', content: pdf },
      ]);
      expect(res.statusCode).toBe(202);
      jobId = res.json().data.jobId as string;
      await t.app.db.update(users).set({ isActive: false }).where(eq(users.id, owner.userId));
    } finally {
      await t.app.jobs.runner.start();
    }
    const job = await endedJob(jobId);
    expect(job).toMatchObject({ status: 'cancelled', errorCode: 'ACCOUNT_DISABLED', result: null });
    expect(job.webhookStatus).toBeNull();
    // The dispatcher is told of every end at once: a delivery would be under way by now.
    await sleep(1500);
    expect(receiver.got).toHaveLength(0);
    expect(await t.app.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.jobId, jobId))).toHaveLength(0);
    expect(await eventsOf(owner.keyId, 0, (e) => e.statusCode === 200)).toHaveLength(0);
    await receiver.close();
  }, 60_000);

  it('a job whose key was disabled meanwhile is cancelled the same way', async () => {
    const owner = await createUserWithApiKey(t, { plan: 'pro', customLimits: { allowedEndpoints: ['pdf'] } });
    await t.app.jobs.runner.stop();
    let jobId: string;
    try {
      const res = await send('/api/v1/pdf/rotate', owner.apiKey, { async: 'true', angle: '90' }, [
        { field: 'file', content: await numberedPdf(1) },
      ]);
      expect(res.statusCode).toBe(202);
      jobId = res.json().data.jobId as string;
      const disable = await t.app.inject({
        method: 'PUT',
        url: `/api/v1/my/api-keys/${owner.keyId}`,
        headers: { authorization: `Bearer ${owner.accessToken}` },
        payload: { isActive: false },
      });
      expect(disable.statusCode).toBe(200);
    } finally {
      await t.app.jobs.runner.start();
    }
    expect(await endedJob(jobId)).toMatchObject({ status: 'cancelled', errorCode: 'INVALID_API_KEY' });
  }, 60_000);
});

describe('a job the server fails is given back, as the same synchronous call is', () => {
  /** The rotate engines fail with a server fault (not the input's) while `fn` runs. */
  async function withRotateBroken(fn: () => Promise<void>) {
    const engines = t.app.engines;
    const run = engines.run.bind(engines);
    engines.run = (async (op: OperationName, ...rest: unknown[]) => {
      if (op === 'rotate') throw new Error('engine exploded');
      return (run as (...a: unknown[]) => Promise<unknown>)(op, ...rest);
    }) as typeof engines.run;
    try {
      await fn();
    } finally {
      engines.run = run;
    }
  }
  const rotate = (key: string, fields: Record<string, string>) =>
    numberedPdf(1).then((pdf) =>
      send('/api/v1/pdf/rotate', key, { angle: '90', ...fields }, [{ field: 'file', content: pdf }]),
    );
  const twoAMinute = () =>
    createUserWithApiKey(t, { plan: 'pro', customLimits: { maxRequestsPerMinute: 2, allowedEndpoints: ['pdf'] } });

  it('synchronous: two 5xx answers leave the two calls of the minute', async () => {
    const key = await twoAMinute();
    await withRotateBroken(async () => {
      for (let i = 0; i < 2; i++) expect((await rotate(key.apiKey, {})).statusCode).toBeGreaterThanOrEqual(500);
    });
    expect([(await ping(key.apiKey)).statusCode, (await ping(key.apiKey)).statusCode]).toEqual([200, 200]);
  }, 60_000);

  it('async: two jobs failed by the server leave the two calls of the minute, and are not billed', async () => {
    const key = await twoAMinute();
    await withRotateBroken(async () => {
      for (let i = 0; i < 2; i++) {
        const res = await rotate(key.apiKey, { async: 'true' });
        expect(res.statusCode).toBe(202);
        const job = await endedJob(res.json().data.jobId as string);
        expect(job.status).toBe('failed');
        expect(job.result?.statusCode).toBeGreaterThanOrEqual(500);
      }
    });
    expect([(await ping(key.apiKey)).statusCode, (await ping(key.apiKey)).statusCode]).toEqual([200, 200]);
    const runs = await eventsOf(key.keyId, 2, (e) => e.endpoint === '/pdf/rotate');
    expect(runs).toHaveLength(2);
    expect(runs.every((e) => e.statusCode >= 500 && !e.counted)).toBe(true);
    const stored = await t.app.db.select().from(jobs).where(eq(jobs.keyId, key.keyId));
    expect(stored.every((j) => j.limitReceipts.length === 1)).toBe(true);
  }, 60_000);
});
