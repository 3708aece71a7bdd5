import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helper';
import { processingAppForSuite } from '../fixtures/api';
import { testDocument } from '../fixtures/documents';

/** The value of one series in a Prometheus text answer (labels matched as given, in any order). */
function sample(text: string, name: string, labels: Record<string, string | RegExp>): number | undefined {
  for (const line of text.split('\n')) {
    const m = /^(\w+)\{([^}]*)\} (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = Object.fromEntries([...m[2]!.matchAll(/(\w+)="([^"]*)"/g)].map((x) => [x[1], x[2]]));
    const fits = Object.entries(labels).every(([k, v]) =>
      typeof v === 'string' ? got[k] === v : v.test(got[k] ?? ''),
    );
    if (fits) return Number(m[3]);
  }
  return undefined;
}

/**
 * Scrape as Prometheus would. onResponse hooks run once an answer is flushed, after inject resolves and after the
 * request's workspace is removed (its tool account given back): scrape again, for a few seconds, until `until` holds.
 */
async function scrape(t: TestApp, until: (text: string) => boolean = () => true) {
  for (let i = 0; ; i++) {
    await new Promise((r) => setTimeout(r, 50));
    const res = await t.app.inject({ method: 'GET', url: '/metrics' });
    expect(res.statusCode).toBe(200);
    if (until(res.body) || i >= 100) return res;
  }
}

describe('GET /metrics', () => {
  const api = processingAppForSuite();

  it('counts requests per route template, engine operations and processing slots', async () => {
    const app = api.t.app;
    for (let i = 0; i < 3; i++) await app.inject({ method: 'GET', url: '/health' });
    await app.inject({ method: 'GET', url: '/no/such/page/123' });
    const ok = await api.post('/pdf/rotate', { angle: 90 }, [{ content: await testDocument('page_1.pdf') }]);
    expect(ok.statusCode).toBe(200);
    const res = await scrape(
      api.t,
      (text) => sample(text, 'docflow_http_requests_total', { route: '/api/v1/pdf/rotate', status: '200' }) === 1,
    );
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.body;
    expect(sample(text, 'docflow_http_requests_total', { method: 'GET', route: '/health', status: '200' })).toBe(3);
    expect(sample(text, 'docflow_http_requests_total', { route: '/api/v1/pdf/rotate', status: '200' })).toBe(1);
    // Unknown URLs share one series instead of one each.
    expect(text).not.toContain('/no/such/page');
    expect(sample(text, 'docflow_http_requests_total', { route: 'unmatched', status: '404' })).toBe(1);
    expect(
      sample(text, 'docflow_engine_operations_total', { operation: 'countPages', outcome: 'ok', engine: /.+/ }),
    ).toBeGreaterThanOrEqual(1);
    expect(
      sample(text, 'docflow_engine_operations_total', { operation: 'rotate', engine: 'qpdf', outcome: 'ok' }),
    ).toBe(1);
    expect(sample(text, 'docflow_engine_operation_duration_seconds_count', { operation: 'rotate' })).toBe(1);
    expect(text).toMatch(/^docflow_processing_concurrency \d+$/m);
    expect(text).toMatch(/^docflow_processing_running 0$/m);
    expect(text).toMatch(/^docflow_process_resident_memory_bytes \d+/m);
  });

  it('counts failed operations by their error code', async () => {
    const bad = await api.post('/pdf/rotate', { angle: 90 }, [
      { content: Buffer.from('%PDF-1.7\nnot really'), filename: 'x.pdf' },
    ]);
    expect(bad.statusCode).toBe(422);
    const text = (
      await scrape(
        api.t,
        (body) => sample(body, 'docflow_http_requests_total', { route: '/api/v1/pdf/rotate', status: '422' }) === 1,
      )
    ).body;
    expect(
      sample(text, 'docflow_engine_operations_total', {
        operation: 'countPages',
        outcome: 'INVALID_PDF',
        engine: /.+/,
      }),
    ).toBeGreaterThanOrEqual(1);
    expect(sample(text, 'docflow_http_requests_total', { route: '/api/v1/pdf/rotate', status: '422' })).toBe(1);
  });

  it('from another host: refused without METRICS_TOKEN configured (403)', async () => {
    const res = await api.t.app.inject({ method: 'GET', url: '/metrics', remoteAddress: '203.0.113.9' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'FORBIDDEN' });
  });

  it('a forwarded request is not local, even from a proxy on this machine', async () => {
    const res = await api.t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { 'x-forwarded-for': '203.0.113.9' },
    });
    expect(res.statusCode).toBe(403);
  });
});

describe('GET /metrics with METRICS_TOKEN', () => {
  let t: TestApp;
  const token = 'metrics-token-0123456789abcdef';
  beforeAll(async () => {
    t = await buildTestApp({ env: { METRICS_TOKEN: token, TRUST_PROXY: '1' } });
  });
  afterAll(() => t.close());

  it('serves the right bearer token from anywhere; a wrong one is 401', async () => {
    const remote = { remoteAddress: '203.0.113.9' };
    expect(
      (await t.app.inject({ method: 'GET', url: '/metrics', ...remote, headers: { authorization: `Bearer ${token}` } }))
        .statusCode,
    ).toBe(200);
    const wrong = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      ...remote,
      headers: { authorization: 'Bearer nope' },
    });
    expect(wrong.statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/metrics', ...remote })).statusCode).toBe(401);
  });

  it('behind a trusted proxy, loopback alone is not enough', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/metrics' })).statusCode).toBe(401);
  });
});
