import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TJob } from '@docflow/contracts';
import { processingApp } from '../../fixtures/api';
import { form } from '../../fixtures/multipart';
import { numberedPdf } from '../../fixtures/pdfs';
import { createTestUser } from '../../support/api-keys';
import { sleep } from '../../support/limits';

// Issue 28: a job holds a customer's documents. It is seen by the key that made it and by its owner (dashboard
// session, keys they made themselves); a key an admin made for them sees only the jobs it made.

let api: Awaited<ReturnType<typeof processingApp>>;
let admin: { accessToken: string; userId: string };

beforeAll(async () => {
  api = await processingApp({ allowedEndpoints: ['pdf'] });
  admin = await createTestUser(api.t, { role: 'admin' });
}, 60_000);
afterAll(() => api?.t.close());

const withKey = (key: string, method: string, url: string) =>
  api.t.app.inject({ method: method as 'GET', url: `/api/v1${url}`, headers: { 'x-api-key': key } });
const withSession = (token: string, method: string, url: string) =>
  api.t.app.inject({ method: method as 'GET', url: `/api/v1${url}`, headers: { authorization: `Bearer ${token}` } });

async function mergeJob(key: string): Promise<string> {
  const a = await numberedPdf(1, 'Secret');
  const f = form({ async: 'true' }, [
    { field: 'files', content: a },
    { field: 'files', content: a },
  ]);
  const res = await api.t.app.inject({
    method: 'POST',
    url: '/api/v1/pdf/merge',
    payload: f.payload,
    headers: { ...f.headers, 'x-api-key': key },
  });
  expect(res.statusCode, res.body).toBe(202);
  const id = res.json().data.jobId as string;
  const until = Date.now() + 60_000;
  for (;;) {
    const job = (await withKey(key, 'GET', `/jobs/${id}`)).json().data as TJob;
    if (job.status === 'succeeded') return id;
    if (Date.now() > until) throw new Error(`job ${id} still ${job.status}`);
    await sleep(100);
  }
}

/** A custom key an admin makes for the user: the full key is in the admin's answer. */
async function adminMadeKey(): Promise<string> {
  const res = await api.t.app.inject({
    method: 'POST',
    url: '/api/v1/admin/api-keys/custom',
    headers: { authorization: `Bearer ${admin.accessToken}` },
    payload: { userId: api.userId, customLimits: { allowedEndpoints: ['pdf'] }, keyOptions: { name: 'By admin' } },
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().data.apiKey.key as string;
}

describe('404: a key an admin made for a user does not reach the jobs it did not make', () => {
  it("the owner's job is neither listed, read, downloaded, deleted, nor resent with it", async () => {
    const ownersJob = await mergeJob(api.apiKey);
    const adminKey = await adminMadeKey();

    const list = await withKey(adminKey, 'GET', '/jobs');
    expect(list.statusCode, list.body).toBe(200);
    expect((list.json().data.jobs as TJob[]).map((j) => j.id)).not.toContain(ownersJob);
    for (const [method, url] of [
      ['GET', `/jobs/${ownersJob}`],
      ['GET', `/jobs/${ownersJob}/result`],
      ['GET', `/jobs/${ownersJob}/deliveries`],
      ['POST', `/jobs/${ownersJob}/webhook/resend`],
      ['DELETE', `/jobs/${ownersJob}`],
    ]) {
      const res = await withKey(adminKey, method!, url!);
      expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(404);
      expect(res.json().code).toBe('JOB_NOT_FOUND');
    }
    // The job is still there, whole, for its owner's key and dashboard.
    const result = await withKey(api.apiKey, 'GET', `/jobs/${ownersJob}/result`);
    expect(result.statusCode).toBe(200);
    expect(result.headers['content-type']).toBe('application/pdf');
    expect((await withSession(api.accessToken, 'GET', `/jobs/${ownersJob}`)).statusCode).toBe(200);
  });

  it('it reads the jobs it made itself, and its owner sees those too', async () => {
    const adminKey = await adminMadeKey();
    const ownersJob = await mergeJob(api.apiKey);
    const itsJob = await mergeJob(adminKey);
    const listed = ((await withKey(adminKey, 'GET', '/jobs')).json().data.jobs as TJob[]).map((j) => j.id);
    expect(listed).toContain(itsJob);
    expect(listed).not.toContain(ownersJob);
    expect((await withKey(adminKey, 'GET', `/jobs/${itsJob}/result`)).statusCode).toBe(200);
    const owners = ((await withSession(api.accessToken, 'GET', '/jobs')).json().data.jobs as TJob[]).map((j) => j.id);
    expect(owners).toEqual(expect.arrayContaining([itsJob, ownersJob]));
    expect((await withKey(api.apiKey, 'GET', `/jobs/${itsJob}`)).statusCode).toBe(200);
  });
});
