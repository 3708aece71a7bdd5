import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '@docflow/api/testing';
import { createDocFlowClient, type RetryInfo } from '../src/index';
import { listeningApp } from './support';

/**
 * 503 answers with Retry-After as an HTTP date, on the real server: the server's own 503s (maintenance, a full queue)
 * ask for 30 s and more, so a test-only route stands in for an overloaded one. (429 with delay-seconds from the real
 * limiter: client.test.ts.)
 */

const calls = new Map<string, number>();
let t: TestApp & { url: string };
beforeAll(async () => {
  t = await listeningApp({
    routes: (app) => {
      /** Refused `times` times with a Retry-After date `seconds` ahead, then answered. */
      app.get<{ Params: { id: string }; Querystring: { times?: string; seconds?: string } }>(
        '/overloaded/:id',
        async (request, reply) => {
          const n = (calls.get(request.params.id) ?? 0) + 1;
          calls.set(request.params.id, n);
          if (n > Number(request.query.times ?? 1)) return { success: true, data: { calls: n } };
          const at = new Date(Date.now() + Number(request.query.seconds ?? 2) * 1000).toUTCString();
          return reply
            .code(503)
            .header('retry-after', at)
            .send({ success: false, error: 'Overloaded, retry later', code: 'SERVICE_UNAVAILABLE' });
        },
      );
    },
  });
});
afterAll(() => t?.close());

const get = (client: ReturnType<typeof createDocFlowClient>, path: string) =>
  client.download(path as `/api/v1/${string}`, 'arrayBuffer').then(
    (f) => ({ status: f.response.status, body: JSON.parse(Buffer.from(f.data).toString()) as unknown }),
    (e: { status: number; code: string }) => ({ status: e.status, code: e.code }),
  );

describe('503 with Retry-After as an HTTP date', () => {
  it('waits until the date, then the call goes through', async () => {
    const retries: RetryInfo[] = [];
    const client = createDocFlowClient({ baseUrl: t.url, retry: { onRetry: (r) => retries.push(r) } });
    const started = Date.now();
    const answer = await get(client, '/api/v1/overloaded/a?times=1&seconds=2');
    expect(answer).toEqual({ status: 200, body: { success: true, data: { calls: 2 } } });
    expect(retries).toHaveLength(1);
    expect(retries[0]).toMatchObject({ attempt: 1, status: 503 });
    // An HTTP date has whole seconds: 2 s ahead is a wait between 1 and 2 s.
    expect(retries[0]!.waitMs).toBeGreaterThan(900);
    expect(retries[0]!.waitMs).toBeLessThanOrEqual(2000);
    expect(Date.now() - started).toBeGreaterThanOrEqual(retries[0]!.waitMs);
  });

  it('stops after maxAttempts with the last refusal', async () => {
    const client = createDocFlowClient({ baseUrl: t.url, retry: { maxAttempts: 2 } });
    expect(await get(client, '/api/v1/overloaded/b?times=5&seconds=1')).toEqual({
      status: 503,
      code: 'SERVICE_UNAVAILABLE',
    });
    expect(calls.get('b')).toBe(2);
  });

  it('a wait is cut short by the call’s signal', async () => {
    const client = createDocFlowClient({ baseUrl: t.url });
    const controller = new AbortController();
    setTimeout(() => controller.abort(new Error('the user gave up')), 200);
    const asked = 30_000;
    const started = Date.now();
    await expect(
      client.download(`/api/v1/overloaded/c?times=5&seconds=${asked / 1000}`, 'blob', { signal: controller.signal }),
    ).rejects.toThrow('the user gave up');
    // Cut short: back well before the wait the server asked for was over, and nothing sent again.
    expect(Date.now() - started).toBeLessThan(asked / 2);
    expect(calls.get('c')).toBe(1);
  });
});
