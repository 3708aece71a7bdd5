import { describe, expect, it } from 'vitest';
import type { TJob } from '@docflow/contracts';
import { processingAppForSuite } from '../../fixtures/api';
import { form } from '../../fixtures/multipart';
import { numberedPdf, pageCount, pagesText, rotations } from '../../fixtures/pdfs';
import { saveBody } from '../../fixtures/results';
import { createUserWithApiKey } from '../../support/api-keys';
import { sleep } from '../../support/limits';

const api = processingAppForSuite({ allowedEndpoints: ['pdf', 'batch', 'conversion'] });

const getJob = async (id: string, key = api.apiKey) => {
  const res = await api.t.app.inject({ method: 'GET', url: `/api/v1/jobs/${id}`, headers: { 'x-api-key': key } });
  return { status: res.statusCode, job: res.statusCode === 200 ? (res.json() as { data: TJob }).data : null, res };
};

const listJobs = async (): Promise<TJob[]> =>
  (await api.t.app.inject({ method: 'GET', url: '/api/v1/jobs', headers: { 'x-api-key': api.apiKey } })).json().data
    .jobs;

async function waitFor(id: string, timeoutMs = 60_000): Promise<TJob> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const { job } = await getJob(id);
    if (job && ['succeeded', 'failed', 'cancelled'].includes(job.status)) return job;
    if (Date.now() > until) throw new Error(`job ${id} still ${job?.status}`);
    await sleep(100);
  }
}

describe('async jobs: async=true on a processing route', () => {
  it('answers 202 with a job; the job runs the same call and its result is the file', async () => {
    const a = await numberedPdf(2, 'Alpha');
    const b = await numberedPdf(3, 'Beta');
    const res = await api.post('/pdf/merge', { async: 'true' }, [
      { field: 'files', content: a },
      { field: 'files', content: b },
    ]);
    expect(res.statusCode).toBe(202);
    const { jobId, location, status } = res.json().data;
    expect(status).toBe('queued');
    expect(res.headers.location).toBe(`/api/v1/jobs/${jobId}`);
    expect(location).toBe(res.headers.location);

    const job = await waitFor(jobId);
    expect(job).toMatchObject({ status: 'succeeded', progress: 100, endpoint: '/pdf/merge', error: null, attempts: 1 });
    expect(job.result).toMatchObject({ contentType: 'application/pdf', pages: 5 });
    expect(job.startedAt && job.finishedAt && job.durationMs! >= 0).toBeTruthy();

    const out = await api.t.app.inject({ method: 'GET', url: job.result!.url, headers: { 'x-api-key': api.apiKey } });
    expect(out.statusCode).toBe(200);
    expect(out.headers['content-type']).toBe('application/pdf');
    expect(out.headers['content-disposition']).toContain('.pdf');
    const file = saveBody(out.rawPayload);
    expect(pageCount(file)).toBe(5);
    expect(pagesText(file).join('\n')).toMatch(/Alpha Page 1[\s\S]*Beta Page 3/);
  });

  it('takes async as a query parameter too, and checks the fields before admitting anything', async () => {
    const a = await numberedPdf(1, 'Solo');
    const send = (url: string, fields: Record<string, string>) => {
      const f = form(fields, [{ content: a }]);
      return api.t.app.inject({
        method: 'POST',
        url,
        payload: f.payload,
        headers: { ...f.headers, 'x-api-key': api.apiKey },
      });
    };
    const before = (await listJobs()).length;
    const bad = await send('/api/v1/pdf/rotate?async=true', { angle: '45' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().error).toMatch(/angle/);
    expect(await listJobs()).toHaveLength(before);

    const ok = await send('/api/v1/pdf/rotate?async=true', { angle: '90' });
    expect(ok.statusCode).toBe(202);
    const job = await waitFor(ok.json().data.jobId);
    expect(job).toMatchObject({ status: 'succeeded', endpoint: '/pdf/rotate' });
    const out = await api.t.app.inject({ method: 'GET', url: job.result!.url, headers: { 'x-api-key': api.apiKey } });
    expect(rotations(saveBody(out.rawPayload))).toEqual([90]);
  });

  it('a failing call fails the job with the error code, and the result is the error answer', async () => {
    const res = await api.post('/pdf/merge', { async: 'true' }, [
      { field: 'files', content: Buffer.from('not a pdf at all'), filename: 'a.pdf' },
      { field: 'files', content: await numberedPdf(1, 'X') },
    ]);
    expect(res.statusCode).toBe(202);
    const job = await waitFor(res.json().data.jobId);
    expect(job.status).toBe('failed');
    expect(job.error?.code).toMatch(/INVALID_PDF|UNSUPPORTED_FORMAT/);
    expect(job.result).toBeNull();
    const out = await api.t.app.inject({
      method: 'GET',
      url: `/api/v1/jobs/${job.id}/result`,
      headers: { 'x-api-key': api.apiKey },
    });
    expect(out.statusCode).toBeGreaterThanOrEqual(400);
    expect(out.json().code).toBe(job.error!.code);
  });

  it("only the key's owner sees a job: another user gets 404 for every job route", async () => {
    const res = await api.post('/pdf/merge', { async: 'true' }, [
      { field: 'files', content: await numberedPdf(1, 'P') },
      { field: 'files', content: await numberedPdf(1, 'Q') },
    ]);
    const { jobId } = res.json().data;
    await waitFor(jobId);
    const other = await createUserWithApiKey(api.t, { plan: 'free' });
    expect((await getJob(jobId, other.apiKey)).status).toBe(404);
    for (const [method, url] of [
      ['GET', `/api/v1/jobs/${jobId}/result`],
      ['DELETE', `/api/v1/jobs/${jobId}`],
    ] as const) {
      const r = await api.t.app.inject({ method, url, headers: { 'x-api-key': other.apiKey } });
      expect(r.statusCode).toBe(404);
      expect(r.json().code).toBe('JOB_NOT_FOUND');
    }
    const mine = await api.t.app.inject({ method: 'GET', url: '/api/v1/jobs', headers: { 'x-api-key': other.apiKey } });
    expect(mine.json().data.jobs).toEqual([]);
    // The dashboard reads them with the owner's access token too.
    const list = await api.t.app.inject({ method: 'GET', url: '/api/v1/jobs', headers: { 'x-api-key': api.apiKey } });
    expect(list.json().data.jobs.map((j: TJob) => j.id)).toContain(jobId);
  });

  it('DELETE of an ended job removes it with its files', async () => {
    const res = await api.post('/pdf/merge', { async: 'true' }, [
      { field: 'files', content: await numberedPdf(1, 'R') },
      { field: 'files', content: await numberedPdf(1, 'S') },
    ]);
    const { jobId } = res.json().data;
    await waitFor(jobId);
    const del = await api.t.app.inject({
      method: 'DELETE',
      url: `/api/v1/jobs/${jobId}`,
      headers: { 'x-api-key': api.apiKey },
    });
    expect(del.statusCode).toBe(200);
    expect((await getJob(jobId)).status).toBe(404);
    await expect(api.t.app.jobs.store.openResult(jobId)).rejects.toThrow();
  });
});
