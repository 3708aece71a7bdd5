import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '@docflow/api/testing';
import { createUserWithApiKey } from '@docflow/api/testing/support/api-keys';
import { testDocument } from '@docflow/api/testing/fixtures/documents';
import { pagesText } from '@docflow/api/testing/fixtures/pdfs';
import { saveBody } from '@docflow/api/testing/fixtures/results';
import { createDocFlowClient, JobWaitError, type TJob, type TJobAccepted } from '../src/index';
import { listeningApp } from './support';

/** waitForJob and jobResult on real jobs: processing calls sent with async=true to the real server over HTTP. */

let t: TestApp & { url: string };
let apiKey: string;
beforeAll(async () => {
  t = await listeningApp();
  ({ apiKey } = await createUserWithApiKey(t, {
    plan: 'pro',
    customLimits: { allowedEndpoints: ['conversion', 'pdf', 'batch'] },
  }));
});
afterAll(() => t?.close());

const client = () => createDocFlowClient({ baseUrl: t.url, apiKey });
const docx = async () => ({ data: readFileSync(await testDocument('pages_3.docx')), name: 'pages_3.docx' });

async function startJob(path: '/api/v1/conversion/word-to-pdf' | '/api/v1/conversion/batch-to-pdf', files: unknown) {
  const c = client();
  const res = await c.upload(path, { ...(files as object), fields: { async: 'true' } } as never);
  expect(res.status).toBe(202);
  return (await c.readJson<{ data: TJobAccepted }>(res)).data;
}

describe('waitForJob', () => {
  it('polls an async conversion until it succeeds, telling each read; then its result downloads with its name', async () => {
    const accepted = await startJob('/api/v1/conversion/word-to-pdf', { file: await docx() });
    const seen: Array<TJob['status']> = [];
    const job = await client().waitForJob(accepted.jobId, { intervalMs: 20, onProgress: (j) => seen.push(j.status) });
    expect(job).toMatchObject({ id: accepted.jobId, status: 'succeeded', progress: 100 });
    expect(seen.at(-1)).toBe('succeeded');
    const file = await client().jobResult(job.id, 'arrayBuffer');
    expect(file.fileName).toBe('pages_3.pdf');
    expect(pagesText(saveBody(Buffer.from(file.data)))).toEqual(['Page 1', 'Page 2', 'Page 3']);
  });

  it('a failed job throws JOB_FAILED with the job and its error', async () => {
    const accepted = await startJob('/api/v1/conversion/word-to-pdf', {
      file: { data: Buffer.from('PK\u0003\u0004 not really a document'), name: 'broken.docx' },
    });
    const error = (await client()
      .waitForJob(accepted.jobId, { intervalMs: 20 })
      .catch((e: unknown) => e)) as JobWaitError;
    expect(error).toBeInstanceOf(JobWaitError);
    expect(error.code).toBe('JOB_FAILED');
    expect(error.job?.status).toBe('failed');
    expect(error.message).toContain(error.job!.error!.code);
  });

  it('gives up after timeoutMs, and stops at once when its signal aborts', async () => {
    // A batch of a dozen documents takes seconds: long enough to time out on.
    const many = await Promise.all(Array.from({ length: 12 }, () => docx()));
    const accepted = await startJob('/api/v1/conversion/batch-to-pdf', { files: many });
    const timedOut = (await client()
      .waitForJob(accepted.jobId, { intervalMs: 50, timeoutMs: 200 })
      .catch((e: unknown) => e)) as JobWaitError;
    // Given up while the batch still runs (a wait to its end would have answered the finished job instead).
    expect(timedOut.code).toBe('JOB_WAIT_TIMEOUT');
    const { data } = await client().api.GET('/api/v1/jobs/{id}', { params: { path: { id: accepted.jobId } } });
    expect(data?.data.status).toMatch(/^(queued|running)$/);

    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('stopped by the user')), 100);
    await expect(client().waitForJob(accepted.jobId, { intervalMs: 5_000, signal: controller.signal })).rejects.toThrow(
      'stopped by the user',
    );
    await client().api.DELETE('/api/v1/jobs/{id}', { params: { path: { id: accepted.jobId } } });
  });

  it('an unknown job throws the server’s 404', async () => {
    await expect(client().waitForJob(crypto.randomUUID())).rejects.toMatchObject({
      status: 404,
      code: 'JOB_NOT_FOUND',
    });
  });
});
