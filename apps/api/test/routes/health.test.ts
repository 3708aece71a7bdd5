import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../helper';

describe('health and errors', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  it('GET /health answers ok with a request id', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok' });
    expect(res.headers['x-request-id']).toMatch(/[\w-]{8,}/);
  });

  it('GET /ready checks the database and every configured engine', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/ready' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      status: 'ready',
      checks: { database: 'ok', 'engine:qpdf': 'ok', 'engine:poppler': 'ok', 'engine:ghostscript': 'ok' },
    });
    expect(body.checks.redis).toBeUndefined(); // no REDIS_URL here
  });

  it('GET /ready is 503 naming the engine that cannot run', async () => {
    const broken = await buildTestApp({ env: { QPDF_BIN: '/nonexistent/qpdf' } });
    try {
      const res = await broken.app.inject({ method: 'GET', url: '/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({
        code: 'SERVICE_UNAVAILABLE',
        details: { checks: { database: 'ok', 'engine:qpdf': 'failing' } },
      });
      expect(res.json().error).toBe('Not ready: engine:qpdf failing');
    } finally {
      await broken.close();
    }
  });

  it('GET /ready waits for the engines warmed at start: 503 "warming" while they start, ready once they are up', async () => {
    const warmed = await buildTestApp();
    try {
      const warming = warmed.app.engines.warm();
      const early = await warmed.app.inject({ method: 'GET', url: '/ready' });
      expect(early.statusCode).toBe(503);
      expect(early.json().error).toMatch(/^Not ready: .*engine:libreoffice warming/);
      expect(early.json().details.checks).toMatchObject({
        database: 'ok',
        'engine:libreoffice': 'warming',
        'engine:chromium': 'warming',
      });
      await warming;
      const res = await warmed.app.inject({ method: 'GET', url: '/ready' });
      expect(res.statusCode).toBe(200);
      expect(res.json().checks).toMatchObject({ 'engine:libreoffice': 'ok', 'engine:chromium': 'ok' });
      // Up before any job: the pool's warm instances (LIBREOFFICE_WARM_INSTANCES, 1) and the browser run.
      const statuses = Object.fromEntries(warmed.app.engines.statuses().map((e) => [e.id, e.status]));
      const pool = statuses.libreoffice!.details;
      expect(pool).toMatchObject({ warm: 1, running: 1, busy: 0, started: 1 });
      expect(statuses.chromium?.details).toMatchObject({ running: true, launches: 1 });
    } finally {
      await warmed.close();
    }
  });

  it('GET /ready tells anyone what fails, never why (no driver message, address or path)', async () => {
    const broken = await buildTestApp({
      env: { QPDF_BIN: '/nonexistent/secret-path/qpdf', REDIS_URL: 'redis://:hunter2@127.0.0.1:1' },
    });
    try {
      const res = await broken.app.inject({ method: 'GET', url: '/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json().details.checks).toMatchObject({ redis: 'failing', 'engine:qpdf': 'failing' });
      expect(res.body).not.toMatch(/hunter2|127\.0\.0\.1|ECONNREFUSED|secret-path|ENOENT|connect/i);
    } finally {
      await broken.close();
    }
  });

  it('an unknown route is a JSON 404 with code and requestId', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/nothing-here' });
    expect(res.statusCode).toBe(404);
    const body = res.json();
    expect(body).toMatchObject({ success: false, code: 'ROUTE_NOT_FOUND' });
    expect(body.requestId).toBe(res.headers['x-request-id']);
  });

  it('serves the OpenAPI 3.1 document and the reference page', async () => {
    const doc = await t.app.inject({ method: 'GET', url: '/api-docs/openapi.json' });
    expect(doc.statusCode).toBe(200);
    expect(doc.json().openapi).toBe('3.1.0');
    const page = await t.app.inject({ method: 'GET', url: '/api-docs' });
    expect([200, 302]).toContain(page.statusCode);
  });
});
