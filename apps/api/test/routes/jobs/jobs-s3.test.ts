import { DeleteObjectCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TJob } from '@docflow/contracts';
import { processingApp } from '../../fixtures/api';
import { buildTestApp } from '../../helper';
import { numberedPdf, pageCount, pagesText } from '../../fixtures/pdfs';
import { saveBody } from '../../fixtures/results';
import { sleep } from '../../support/limits';
import { startS3Server, S3RVER_KEYS, type S3Server } from '../../support/s3-server';

let s3: S3Server;
let api: Awaited<ReturnType<typeof processingApp>>;
beforeAll(async () => {
  s3 = await startS3Server();
  api = await processingApp({ env: { STORAGE_URL: s3.storageUrl, ...S3RVER_KEYS } });
});
afterAll(async () => {
  await api?.t.close();
  await s3?.close();
});

const call = (method: 'GET' | 'DELETE', url: string) =>
  api.t.app.inject({ method, url, headers: { 'x-api-key': api.apiKey } });

async function waitFor(id: string): Promise<TJob> {
  for (const until = Date.now() + 60_000; Date.now() < until; await sleep(100)) {
    const job = (await call('GET', `/api/v1/jobs/${id}`)).json().data as TJob;
    if (['succeeded', 'failed', 'cancelled'].includes(job.status)) return job;
  }
  throw new Error(`job ${id} did not end`);
}

describe('jobs with STORAGE_URL: their files in an S3-compatible store', () => {
  it('an async job reads its inputs from the bucket and writes its result there; DELETE removes them', async () => {
    const res = await api.post('/pdf/merge', { async: 'true' }, [
      { field: 'files', content: await numberedPdf(2, 'Alpha') },
      { field: 'files', content: await numberedPdf(1, 'Beta') },
    ]);
    expect(res.statusCode).toBe(202);
    const { jobId } = res.json().data;
    const job = await waitFor(jobId);
    expect(job).toMatchObject({ status: 'succeeded', result: { contentType: 'application/pdf', pages: 3 } });

    expect(await s3.keys(`${jobId}/`)).toEqual([`${jobId}/input/0`, `${jobId}/input/1`, `${jobId}/result`]);
    const out = await call('GET', `/api/v1/jobs/${jobId}/result`);
    expect(out.statusCode).toBe(200);
    expect(out.headers['content-type']).toBe('application/pdf');
    expect(Number(out.headers['content-length'])).toBe(out.rawPayload.length);
    expect(out.rawPayload.length).toBe(job.result!.size);
    const file = saveBody(out.rawPayload);
    expect(pageCount(file)).toBe(3);
    expect(pagesText(file).join('\n')).toMatch(/Alpha Page 1[\s\S]*Beta Page 1/);

    expect((await call('DELETE', `/api/v1/jobs/${jobId}`)).statusCode).toBe(200);
    expect(await s3.keys(`${jobId}/`)).toEqual([]);
    expect((await call('GET', `/api/v1/jobs/${jobId}`)).statusCode).toBe(404);
  });

  it("a result gone from the bucket behind DocFlow's back is a server error, as a lost local file is", async () => {
    const res = await api.post('/pdf/merge', { async: 'true' }, [
      { field: 'files', content: await numberedPdf(1, 'A') },
      { field: 'files', content: await numberedPdf(1, 'B') },
    ]);
    const { jobId } = res.json().data;
    expect((await waitFor(jobId)).status).toBe('succeeded');
    await s3.client.send(new DeleteObjectCommand({ Bucket: s3.bucket, Key: `${jobId}/result` }));
    const out = await call('GET', `/api/v1/jobs/${jobId}/result`);
    expect(out.statusCode).toBe(500);
    expect(out.json()).toMatchObject({ code: 'INTERNAL_ERROR' });
  });

  it('/ready checks the store: its bucket answers; a bucket that is not there makes the node not ready', async () => {
    const ready = await api.t.app.inject({ method: 'GET', url: '/ready' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json().checks.storage).toBe('ok');
    const missing = s3.storageUrl.replace(/^s3:\/\/[^/?]+/, 's3://no-such-bucket');
    const other = await buildTestApp({ env: { STORAGE_URL: missing, ...S3RVER_KEYS } });
    try {
      const res = await other.app.inject({ method: 'GET', url: '/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json().details.checks.storage).toBe('failing');
      expect(res.json().error).toContain('storage');
    } finally {
      await other.close();
    }
  });
});
