import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '@docflow/api/testing';
import { createDocFlowClient, JobWaitError, type TJob } from '../src/index';
import { listeningApp } from './support';

/**
 * waitForJob and jobResult against the real server, which has no jobs routes yet (a colleague is adding them): this
 * file registers test-only GET /jobs/:id and /jobs/:id/result of the announced shape on the real app. Once the real
 * routes land, drive them with an `async=true` call instead and drop these stand-ins.
 */

const created = new Date().toISOString();
/** Each read of a job moves it one step along its script; the last step repeats. */
const scripts: Record<string, Array<Partial<TJob>>> = {
  done: [
    { status: 'queued', progress: 0 },
    { status: 'running', progress: 40, startedAt: created },
    { status: 'running', progress: 80, startedAt: created },
    {
      status: 'succeeded',
      progress: 100,
      startedAt: created,
      finishedAt: created,
      result: { contentType: 'application/pdf', size: 8, fileName: 'report.pdf' },
    },
  ],
  broken: [
    { status: 'running', progress: 10 },
    { status: 'failed', progress: 10, error: { code: 'CONVERSION_FAILED', message: 'LibreOffice could not read it' } },
  ],
  slow: [{ status: 'running', progress: 5 }],
};
const reads = new Map<string, number>();
const keysSeen: string[] = [];

let t: TestApp & { url: string };
beforeAll(async () => {
  t = await listeningApp({
    routes: (app) => {
      app.get<{ Params: { id: string } }>('/jobs/:id', async (request, reply) => {
        keysSeen.push(String(request.headers['x-api-key']));
        const script = scripts[request.params.id];
        if (!script) return reply.code(404).send({ success: false, error: 'job not found', code: 'NOT_FOUND' });
        const n = reads.get(request.params.id) ?? 0;
        reads.set(request.params.id, n + 1);
        const step = script[Math.min(n, script.length - 1)]!;
        const job: TJob = {
          id: request.params.id,
          endpoint: '/conversion/word-to-pdf',
          status: 'queued',
          progress: 0,
          createdAt: created,
          startedAt: null,
          finishedAt: null,
          error: null,
          result: null,
          ...step,
        };
        return { success: true, data: job };
      });
      app.get<{ Params: { id: string } }>('/jobs/:id/result', async (_request, reply) =>
        reply
          .header('content-type', 'application/pdf')
          .header('content-disposition', `attachment; filename="report.pdf"; filename*=UTF-8''r%C3%A9port.pdf`)
          .send(Buffer.from('%PDF-1.7')),
      );
    },
  });
});
afterAll(() => t?.close());

const client = () => createDocFlowClient({ baseUrl: t.url, apiKey: 'dfk_test' });

describe('waitForJob', () => {
  it('polls until the job succeeds, telling each step; then its result downloads with its name', async () => {
    const seen: Array<[string, number]> = [];
    const job = await client().waitForJob('done', {
      intervalMs: 20,
      onProgress: (j) => seen.push([j.status, j.progress]),
    });
    expect(job).toMatchObject({ id: 'done', status: 'succeeded', progress: 100, result: { fileName: 'report.pdf' } });
    expect(seen).toEqual([
      ['queued', 0],
      ['running', 40],
      ['running', 80],
      ['succeeded', 100],
    ]);
    expect(new Set(keysSeen)).toEqual(new Set(['dfk_test']));
    const file = await client().jobResult('done', 'arrayBuffer');
    expect(file.fileName).toBe('réport.pdf');
    expect(Buffer.from(file.data).toString()).toBe('%PDF-1.7');
  });

  it('a failed job throws JOB_FAILED with the job and its error', async () => {
    const error = (await client()
      .waitForJob('broken', { intervalMs: 10 })
      .catch((e: unknown) => e)) as JobWaitError;
    expect(error).toBeInstanceOf(JobWaitError);
    expect(error.code).toBe('JOB_FAILED');
    expect(error.message).toContain('CONVERSION_FAILED');
    expect(error.job?.error?.code).toBe('CONVERSION_FAILED');
  });

  it('gives up after timeoutMs, and stops at once when its signal aborts', async () => {
    const started = Date.now();
    const timedOut = (await client()
      .waitForJob('slow', { intervalMs: 50, timeoutMs: 200 })
      .catch((e: unknown) => e)) as JobWaitError;
    expect(timedOut.code).toBe('JOB_WAIT_TIMEOUT');
    expect(Date.now() - started).toBeLessThan(1_000);

    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('stopped by the user')), 100);
    await expect(client().waitForJob('slow', { intervalMs: 5_000, signal: controller.signal })).rejects.toThrow(
      'stopped by the user',
    );
  });

  it('an unknown job throws the server’s 404', async () => {
    await expect(client().waitForJob('nope')).rejects.toMatchObject({ status: 404, code: 'NOT_FOUND' });
  });
});
