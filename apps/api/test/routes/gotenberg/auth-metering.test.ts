import { describe, expect, it } from 'vitest';
import { numberedPdf } from '../../fixtures/pdfs';
import { createUserWithApiKey } from '../../support/api-keys';
import { statusFor } from '../../../src/lib/gotenberg-status';
import { gotenbergAppForSuite, pdfFile } from './gotenberg-api';

/**
 * The Gotenberg-compatible routes behind DocFlow's processing guard: the key as Basic password or x-api-key, the
 * plan's endpoint groups, the usage meter under the DocFlow endpoint; Gotenberg's trace, health and version.
 */
const api = gotenbergAppForSuite();

const merge = async (headers: Record<string, string>) =>
  api.gotenberg('/forms/pdfengines/merge', {}, [pdfFile(await numberedPdf(1), 'a.pdf')], headers);

describe('200', () => {
  it('the key as the Basic password (any user name), or as x-api-key', async () => {
    const other = `Basic ${Buffer.from(`anyone:${api.apiKey}`).toString('base64')}`;
    expect((await merge({ authorization: other })).statusCode).toBe(200);
    expect((await merge({ 'x-api-key': api.apiKey })).statusCode).toBe(200);
  });

  it('Gotenberg-Trace comes back and is the request id of the usage event, metered as /pdf/merge', async () => {
    const trace = `trace-${Date.now()}`;
    const res = await merge({ authorization: api.basic, 'gotenberg-trace': trace });
    expect(res.statusCode).toBe(200);
    expect(res.headers['gotenberg-trace']).toBe(trace);
    expect(res.headers['x-request-id']).toBe(trace);
    expect(res.headers['ratelimit-limit']).toBeTruthy();
    // The usage event is recorded once the streamed answer is done (onResponse), a moment after inject resolves.
    let rows: Array<{ endpoint: string; endpoint_group: string; status_code: number }> = [];
    for (let i = 0; i < 40 && rows.length === 0; i++) {
      await new Promise((r) => setTimeout(r, 25));
      await api.t.app.apiKeyGuard.meter.flush();
      rows = await api.t.database.sql.query(
        'select endpoint, endpoint_group, status_code from usage_events where request_id = $1',
        [trace],
      );
    }
    expect(rows).toEqual([{ endpoint: '/pdf/merge', endpoint_group: 'pdf', status_code: 200 }]);
  });

  it('without a trace, the request id is answered as the trace', async () => {
    const res = await merge({ authorization: api.basic });
    expect(res.headers['gotenberg-trace']).toBe(res.headers['x-request-id']);
  });

  it("GET /health in Gotenberg's shape with its checks (chromium, libreoffice), public; GET /version is plain text", async () => {
    const health = await api.t.app.inject({ method: 'GET', url: '/gotenberg/health' });
    expect(health.statusCode).toBe(200);
    expect(health.headers['content-type']).toMatch(/^application\/json/);
    const body = health.json();
    expect(Object.keys(body).sort()).toEqual(['details', 'status']);
    expect(body.status).toBe('up');
    expect(Object.keys(body.details).sort()).toEqual(['chromium', 'libreoffice']);
    for (const check of Object.values(body.details))
      expect(check).toEqual({ status: 'up', timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    const head = await api.t.app.inject({ method: 'HEAD', url: '/gotenberg/health' });
    expect(head.statusCode).toBe(200);
    const version = await api.t.app.inject({ method: 'GET', url: '/gotenberg/version' });
    expect(version.statusCode).toBe(200);
    expect(version.headers['content-type']).toBe('text/plain; charset=UTF-8');
    // The Gotenberg release followed, DocFlow's version as semver build metadata.
    expect(version.body).toMatch(/^8\.36\.0\+docflow\.\d+\.\d+\.\d+/);
  });
});

describe('401', () => {
  it('no key, a wrong Basic password: plain text with a Basic challenge', async () => {
    const none = await merge({});
    expect(none.statusCode).toBe(401);
    expect(none.headers['content-type']).toBe('text/plain; charset=UTF-8');
    expect(none.headers['www-authenticate']).toMatch(/^Basic /);
    expect(none.body).toMatch(/Basic password/);
    const wrong = await merge({ authorization: `Basic ${Buffer.from('gotenberg:dfk_nope').toString('base64')}` });
    expect(wrong.statusCode).toBe(401);
  });

  it('Basic is taken on the Gotenberg routes only', async () => {
    const res = await api.t.app.inject({ method: 'GET', url: '/api/v1/ping', headers: { authorization: api.basic } });
    expect(res.statusCode).toBe(401);
  });
});

describe('403', () => {
  it("a key whose plan lacks the DocFlow endpoint's group is refused, as on /api/v1", async () => {
    const { apiKey } = await createUserWithApiKey(api.t, { plan: 'free' });
    const res = await merge({ 'x-api-key': apiKey });
    expect(res.statusCode).toBe(403);
    expect(res.headers['content-type']).toBe('text/plain; charset=UTF-8');
    expect(res.body).toMatch(/pdf endpoints are not included/);
  });
});

describe('404 and statuses', () => {
  it('an unknown route under /gotenberg answers 404 in plain text', async () => {
    const res = await api.t.app.inject({ method: 'POST', url: '/gotenberg/forms/pdfengines/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toBe('text/plain; charset=UTF-8');
  });

  it("DocFlow's statuses as Gotenberg's: timeout 503, full queue 429, bad input 400, the rest kept", () => {
    expect(statusFor('TIMEOUT', 504)).toBe(503);
    expect(statusFor('QUEUE_FULL', 503)).toBe(429);
    expect(statusFor('INVALID_INPUT', 422)).toBe(400);
    expect(statusFor('UNSUPPORTED_FORMAT', 415)).toBe(400);
    expect(statusFor('FILE_TOO_LARGE', 413)).toBe(413);
    expect(statusFor('RATE_LIMIT_EXCEEDED', 429)).toBe(429);
  });
});
