import { execFileSync } from 'node:child_process';
import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import type { TJob } from '@docflow/contracts';
import { jobs, usageEvents } from '../../../src/data/schema/index';
import { processingAppForSuite } from '../../fixtures/api';
import { testDocument } from '../../fixtures/documents';
import { form } from '../../fixtures/multipart';
import { numberedPdf, pageCount, pagesText, rotations } from '../../fixtures/pdfs';
import { saveBody } from '../../fixtures/results';
import { createUserWithApiKey } from '../../support/api-keys';
import { sleep } from '../../support/limits';

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
const api = processingAppForSuite({ allowedEndpoints: ['pdf', 'batch', 'conversion', 'qrcode'] });

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

  it('a processing job calls its endpoint, not the server: no request is replayed, and its answer is the synchronous one', async () => {
    const inject = vi.spyOn(api.t.app, 'inject');
    try {
      const pdf = await numberedPdf(2, 'Direct');
      const sync = await api.post('/pdf/metadata', {}, [{ content: pdf }]);
      expect(sync.statusCode).toBe(200);
      const queued = await api.post('/pdf/metadata', { async: 'true' }, [{ content: pdf }]);
      const job = await waitFor(queued.json().data.jobId);
      expect(job).toMatchObject({ status: 'succeeded', result: { contentType: 'application/json' } });
      const out = await api.t.app.inject({ method: 'GET', url: job.result!.url, headers: { 'x-api-key': api.apiKey } });
      expect(out.json()).toEqual(sync.json());
      // Files as JSON (Accept) come back the same way from a job.
      const asJson = await api.post('/pdf/rotate', { async: 'true', angle: '90' }, [{ content: pdf }], {
        accept: 'application/json',
      });
      const rotated = await waitFor(asJson.json().data.jobId);
      const body = (
        await api.t.app.inject({ method: 'GET', url: rotated.result!.url, headers: { 'x-api-key': api.apiKey } })
      ).json();
      expect(body.data).toMatchObject({ mimeType: 'application/pdf', pages: 2 });
      expect(rotations(saveBody(Buffer.from(body.data.base64, 'base64')))).toEqual([90, 90]);
      // The three POSTs are this test's own: a job replayed through the server would add its own.
      const posts = inject.mock.calls.filter((args: unknown[]) => (args[0] as { method?: string }).method === 'POST');
      expect(posts).toHaveLength(3);
    } finally {
      inject.mockRestore();
    }
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

  it('a NUL in a field is refused before admission (422 naming it); a NUL in a file name is stored without it', async () => {
    const before = (await listJobs()).length;
    const bad = await api.post('/pdf/rotate', { async: 'true', angle: '90', pages: '1\u0000' }, [
      { content: await numberedPdf(1, 'N') },
    ]);
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toMatchObject({ code: 'INVALID_INPUT', details: { field: 'pages' } });
    expect(bad.json().error).toMatch(/NUL/);
    expect(await listJobs()).toHaveLength(before);

    const ok = await api.post('/pdf/rotate', { async: 'true', angle: '90' }, [
      { content: await numberedPdf(1, 'N'), filename: 'a\u0000b.pdf' },
    ]);
    expect(ok.statusCode).toBe(202);
    const job = await waitFor(ok.json().data.jobId);
    expect(job.status).toBe('succeeded');
    const [row] = await api.t.app.db.select().from(jobs).where(eq(jobs.id, job.id));
    expect(row!.inputs[0]!.fileName).toBe('a\uFFFDb.pdf');
  });

  it('the QR code routes take async too: a JSON call (async in its body) and a decode (async in the query)', async () => {
    const made = await api.postJson('/qrcode/text', { text: 'Job à QR', async: true, size: 300 });
    expect(made.statusCode).toBe(202);
    const job = await waitFor(made.json().data.jobId);
    expect(job).toMatchObject({ status: 'succeeded', endpoint: '/qrcode/text' });
    expect(job.result).toMatchObject({ contentType: 'image/png' });
    const png = await api.t.app.inject({ method: 'GET', url: job.result!.url, headers: { 'x-api-key': api.apiKey } });
    expect(Number(png.headers['x-qr-version'])).toBeGreaterThan(0); // the route's own headers come back with it
    const decoded = execFileSync('zbarimg', ['--nodbus', '--raw', '-q', saveBody(png.rawPayload, 'png')], {
      encoding: 'utf8',
    });
    expect(decoded.trim()).toBe('Job à QR');

    const listed = (await listJobs()).length;
    const bad = await api.postJson('/qrcode/text', { async: 'true' });
    expect(bad.statusCode).toBe(422); // checked (no text) before anything is admitted
    expect(await listJobs()).toHaveLength(listed);

    const f = form({}, [{ field: 'image', content: png.rawPayload, filename: 'qr.png' }]);
    const read = await api.t.app.inject({
      method: 'POST',
      url: '/api/v1/qrcode/decode?async=true',
      payload: f.payload,
      headers: { ...f.headers, 'x-api-key': api.apiKey },
    });
    expect(read.statusCode).toBe(202);
    const readJob = await waitFor(read.json().data.jobId);
    expect(readJob.status).toBe('succeeded');
    const answer = await api.t.app.inject({
      method: 'GET',
      url: readJob.result!.url,
      headers: { 'x-api-key': api.apiKey },
    });
    expect(answer.json().data.symbols[0].data).toBe('Job à QR');
  });

  it('format detection takes async too: its JSON answer is the result', async () => {
    const res = await api.post('/conversion/detect', { async: 'true' }, [{ content: await numberedPdf(1, 'D') }]);
    expect(res.statusCode).toBe(202);
    const job = await waitFor(res.json().data.jobId);
    expect(job).toMatchObject({ status: 'succeeded', endpoint: '/conversion/detect' });
    const out = await api.t.app.inject({ method: 'GET', url: job.result!.url, headers: { 'x-api-key': api.apiKey } });
    expect(out.json().data).toMatchObject({ format: 'pdf', method: 'magic' });
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

  it("a failed job keeps its code and the run's words; its message is rendered in the reader's language", async () => {
    const res = await api.post('/pdf/merge', { async: 'true' }, [
      { field: 'files', content: Buffer.from('not a pdf at all'), filename: 'a.pdf' },
      { field: 'files', content: await numberedPdf(1, 'X') },
    ]);
    const { jobId } = res.json().data;
    await waitFor(jobId);
    const [row] = await api.t.app.db.select().from(jobs).where(eq(jobs.id, jobId));
    expect(row!.errorCode).toBe('UNSUPPORTED_FORMAT');
    const stored = row!.errorMessage!;
    expect(stored).not.toBe('');

    const read = async (lang?: string) => {
      const headers = { 'x-api-key': api.apiKey, ...(lang ? { 'accept-language': lang } : {}) };
      const one = await api.t.app.inject({ method: 'GET', url: `/api/v1/jobs/${jobId}`, headers });
      const list = await api.t.app.inject({ method: 'GET', url: '/api/v1/jobs', headers });
      const listed = (list.json().data.jobs as TJob[]).find((j) => j.id === jobId)!;
      expect(listed.error).toEqual(one.json().data.error);
      return { error: (one.json().data as TJob).error!, headers: one.headers };
    };
    const fr = await read('fr-FR,fr;q=0.9');
    expect(fr.error).toEqual({
      code: 'UNSUPPORTED_FORMAT',
      message: 'Format de fichier non pris en charge',
      detail: stored,
    });
    expect(fr.headers['content-language']).toBe('fr');
    expect(fr.headers.vary).toContain('Accept-Language');
    expect((await read('en')).error).toEqual({ code: 'UNSUPPORTED_FORMAT', message: stored });
    expect((await read()).error).toEqual({ code: 'UNSUPPORTED_FORMAT', message: stored });
    // Its result (the error answer the call gave) in the reader's language too, its status and code kept.
    const result = async (lang?: string) =>
      api.t.app.inject({
        method: 'GET',
        url: `/api/v1/jobs/${jobId}/result`,
        headers: { 'x-api-key': api.apiKey, ...(lang ? { 'accept-language': lang } : {}) },
      });
    const [frResult, asStored] = [await result('fr'), await result()];
    expect(frResult.statusCode).toBe(asStored.statusCode);
    expect(frResult.statusCode).toBeGreaterThanOrEqual(400);
    expect(frResult.json()).toMatchObject({
      code: 'UNSUPPORTED_FORMAT',
      error: 'Format de fichier non pris en charge',
      details: { detail: stored },
    });
    expect(asStored.json()).toMatchObject({ code: 'UNSUPPORTED_FORMAT', error: stored });
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

describe('jobs and the limits: counted once, at admission', () => {
  it('a key of N calls a minute gets N jobs admitted and the N+1th refused; each job is one usage event', async () => {
    const small = await createUserWithApiKey(api.t, {
      plan: 'pro',
      customLimits: { maxRequestsPerMinute: 3, burstLimit: null, allowedEndpoints: ['pdf'] },
    });
    const a = await numberedPdf(1, 'Lim');
    const send = () => {
      const f = form({ async: 'true' }, [
        { field: 'files', content: a },
        { field: 'files', content: a },
      ]);
      return api.t.app.inject({
        method: 'POST',
        url: '/api/v1/pdf/merge',
        payload: f.payload,
        headers: { ...f.headers, 'x-api-key': small.apiKey },
      });
    };
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const r = await send();
      expect(r.statusCode).toBe(202);
      ids.push(r.json().data.jobId);
    }
    const refused = await send();
    expect(refused.statusCode).toBe(429);
    expect(refused.json().code).toBe('RATE_LIMIT_EXCEEDED');
    // The runs go through the route again, as the same key, without being limited: all three succeed.
    for (const id of ids) {
      const until = Date.now() + 60_000;
      let job = (await getJob(id, small.apiKey)).job!;
      while (!['succeeded', 'failed'].includes(job.status) && Date.now() < until) {
        await sleep(100);
        job = (await getJob(id, small.apiKey)).job!;
      }
      expect(job.status).toBe('succeeded');
    }
    // A job's end is stored as its answer streams out; the run's usage event is written when that answer has ended,
    // a moment later.
    const mergeEvents = async () => {
      await api.t.app.apiKeyGuard.meter.flush();
      const events = await api.t.app.db.select().from(usageEvents).where(eq(usageEvents.keyId, small.keyId));
      return events.filter((e) => e.endpoint === '/pdf/merge');
    };
    let merges = await mergeEvents();
    for (const until = Date.now() + 10_000; merges.length < 4 && Date.now() < until;) {
      await sleep(50);
      merges = await mergeEvents();
    }
    // Three jobs: three counted events with their real outcome (200, 2 pages), none for the 202s; one refusal.
    expect(merges.filter((e) => e.statusCode === 200)).toHaveLength(3);
    expect(merges.filter((e) => e.statusCode === 200).every((e) => e.counted && e.pages === 2)).toBe(true);
    expect(merges.filter((e) => e.statusCode === 202)).toHaveLength(0);
    expect(merges.filter((e) => e.statusCode === 429)).toHaveLength(1);
  });
});

describe('batch jobs and cancellation', () => {
  it('a batch job lists each file as it finishes, with its outcome', async () => {
    const docx = await testDocument('page_1.docx');
    const res = await api.post('/conversion/batch-to-pdf', { async: 'true' }, [
      { field: 'files', content: docx, filename: 'one.docx', contentType: DOCX },
      { field: 'files', content: Buffer.from('%PDF-1.7 broken'), filename: 'broken.pdf' },
      { field: 'files', content: docx, filename: 'three.docx', contentType: DOCX },
    ]);
    expect(res.statusCode).toBe(202);
    const job = await waitFor(res.json().data.jobId);
    expect(job.status).toBe('succeeded');
    expect(job.files.map((f) => [f.name, f.status])).toEqual([
      ['one.docx', 'succeeded'],
      ['broken.pdf', 'failed'],
      ['three.docx', 'succeeded'],
    ]);
    expect(job.files[1]!.errorCode).toBeTruthy();
    expect(job.result?.contentType).toBe('application/zip');
  });

  it('DELETE of a running job cancels it: its run stops, no result, and it stays listed as cancelled', async () => {
    const docx = await testDocument('pages_3.docx');
    const files = Array.from({ length: 12 }, (_, i) => ({
      field: 'files',
      content: docx,
      filename: `d${i}.docx`,
      contentType: DOCX,
    }));
    const res = await api.post('/conversion/batch-to-pdf', { async: 'true' }, files);
    const { jobId } = res.json().data;
    let job = (await getJob(jobId)).job!;
    while (job.status === 'queued') {
      await sleep(20);
      job = (await getJob(jobId)).job!;
    }
    expect(job.status).toBe('running');
    const del = await api.t.app.inject({
      method: 'DELETE',
      url: `/api/v1/jobs/${jobId}`,
      headers: { 'x-api-key': api.apiKey },
    });
    expect(del.statusCode).toBe(200);
    expect(del.json().message).toMatch(/cancelled/);
    // The run ends promptly (its signal aborted the conversions), far before 12 conversions would have.
    const until = Date.now() + 10_000;
    while (api.t.app.jobs.runner.running > 0 && Date.now() < until) await sleep(20);
    expect(api.t.app.jobs.runner.running).toBe(0);
    job = (await getJob(jobId)).job!;
    expect(job.status).toBe('cancelled');
    expect(job.result).toBeNull();
    expect(job.files.length).toBeLessThan(12);
    const out = await api.t.app.inject({
      method: 'GET',
      url: `/api/v1/jobs/${jobId}/result`,
      headers: { 'x-api-key': api.apiKey },
    });
    expect(out.statusCode).toBe(409);
    expect(out.json().code).toBe('JOB_NOT_FINISHED');
  });
});

describe('interrupted runs and expiry', () => {
  it('a running job whose node stopped reporting is run again; past the last attempt it fails with a reason', async () => {
    const res = await api.post('/pdf/merge', { async: 'true' }, [
      { field: 'files', content: await numberedPdf(1, 'Re') },
      { field: 'files', content: await numberedPdf(1, 'Run') },
    ]);
    const { jobId } = res.json().data;
    await waitFor(jobId);
    const db = api.t.app.db;
    const old = new Date(Date.now() - 10 * 60_000);
    // As a node that died mid-run leaves it: running, its heartbeat stale.
    await db
      .update(jobs)
      .set({ status: 'running', result: null, attempts: 1, updatedAt: old })
      .where(eq(jobs.id, jobId));
    await api.t.app.jobs.runner.recover();
    const again = await waitFor(jobId);
    expect(again).toMatchObject({ status: 'succeeded', attempts: 2 });

    await db.update(jobs).set({ status: 'running', attempts: 3, updatedAt: old }).where(eq(jobs.id, jobId));
    await api.t.app.jobs.runner.recover();
    const failed = (await getJob(jobId)).job!;
    expect(failed.status).toBe('failed');
    expect(failed.error?.code).toBe('JOB_INTERRUPTED');
    expect(failed.error?.message).toMatch(/interrupted 3 times/);
  });

  it('an ended job past its expiry is deleted with its files by the sweep', async () => {
    const res = await api.post('/pdf/merge', { async: 'true' }, [
      { field: 'files', content: await numberedPdf(1, 'Exp') },
      { field: 'files', content: await numberedPdf(1, 'Ire') },
    ]);
    const { jobId } = res.json().data;
    const job = await waitFor(jobId);
    expect(new Date(job.expiresAt!).getTime()).toBeGreaterThan(Date.now() + 23 * 3_600_000);
    await api.t.app.db
      .update(jobs)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(jobs.id, jobId));
    expect(await api.t.app.jobs.runner.sweep()).toBeGreaterThanOrEqual(1);
    expect((await getJob(jobId)).status).toBe(404);
    await expect(api.t.app.jobs.store.openResult(jobId)).rejects.toThrow();
  });
});

describe('a pipeline as a job', () => {
  it('counts its stages when admitted, not again when run; each stage is metered as its endpoint', async () => {
    const small = await createUserWithApiKey(api.t, {
      plan: 'pro',
      customLimits: { maxRequestsPerMinute: 3, burstLimit: null, allowedEndpoints: ['pdf'] },
    });
    const stages = JSON.stringify([{ op: '/pdf/rotate', angle: 90 }, { op: '/pdf/page-numbers' }]);
    const a = await numberedPdf(2, 'Pipe');
    const send = () => {
      const f = form({ async: 'true', stages }, [{ content: a }]);
      return api.t.app.inject({
        method: 'POST',
        url: '/api/v1/pipeline',
        payload: f.payload,
        headers: { ...f.headers, 'x-api-key': small.apiKey },
      });
    };
    const first = await send();
    expect(first.statusCode).toBe(202);
    // 2 of the 3 calls a minute are taken by the first pipeline: a second one (2 more) is refused at admission.
    const second = await send();
    expect(second.statusCode).toBe(429);
    const { jobId } = first.json().data;
    const until = Date.now() + 60_000;
    let job = (await getJob(jobId, small.apiKey)).job!;
    while (!['succeeded', 'failed'].includes(job.status) && Date.now() < until) {
      await sleep(100);
      job = (await getJob(jobId, small.apiKey)).job!;
    }
    expect(job.status).toBe('succeeded');
    const out = await api.t.app.inject({ method: 'GET', url: job.result!.url, headers: { 'x-api-key': small.apiKey } });
    expect(rotations(saveBody(out.rawPayload))).toEqual([90, 90]);
    await api.t.app.apiKeyGuard.meter.flush();
    const events = await api.t.app.db.select().from(usageEvents).where(eq(usageEvents.keyId, small.keyId));
    expect(
      events
        .filter((e) => e.statusCode === 200)
        .map((e) => e.endpoint)
        .sort(),
    ).toEqual(['/pdf/page-numbers', '/pdf/rotate']);
  });
});
