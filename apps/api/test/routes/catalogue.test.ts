import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANY_ENDPOINT_GROUP, endpointCatalogue } from '@docflow/contracts';
import { processingApp } from '../fixtures/api';

/** The endpoint catalogue of packages/contracts against the routes the app really registers. */
describe('endpoint catalogue', () => {
  let api: Awaited<ReturnType<typeof processingApp>>;
  let operations: Array<{ method: string; path: string; tags: string[]; summary: string }>;

  beforeAll(async () => {
    // A key allowed no group at all: every gated route answers 403 naming the group it checks.
    api = await processingApp({ allowedEndpoints: [] });
    const doc = (await api.t.app.inject({ method: 'GET', url: '/api-docs/openapi.json' })).json() as {
      paths: Record<
        string,
        Record<string, { security?: Array<Record<string, unknown>>; tags?: string[]; summary?: string }>
      >;
    };
    operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.entries(ops)
        // Jobs are read with a key too, but they are not processing calls (not metered, not in the catalogue); the
        // Gotenberg routes are counted as catalogue endpoints, but are not ones.
        .filter(
          ([, op]) =>
            op.security?.some((s) => 'apiKey' in s) && !op.tags?.includes('jobs') && !op.tags?.includes('Gotenberg'),
        )
        .map(([method, op]) => ({
          method: method.toUpperCase(),
          path: path.replace(/^\/api\/v1/, ''),
          tags: op.tags ?? [],
          summary: op.summary ?? '',
        })),
    );
  });
  afterAll(() => api.t.close());

  const key = (e: { method: string; path: string }) => `${e.method} ${e.path}`;

  it('lists every route that takes an API key, and only those', () => {
    expect(operations.map(key).sort()).toEqual(endpointCatalogue.map(key).sort());
  });

  it('gives the API reference its tags and summaries', () => {
    for (const e of endpointCatalogue) {
      const op = operations.find((o) => key(o) === key(e));
      expect(op, key(e)).toBeDefined();
      expect(op!.tags, key(e)).toEqual([e.group === ANY_ENDPOINT_GROUP ? 'processing' : e.group]);
      expect(op!.summary, key(e)).toBe(e.summary);
    }
  });

  it("names the endpoint group each route's plan gate checks", async () => {
    for (const e of endpointCatalogue) {
      const res = await api.t.app.inject({
        method: e.method,
        url: `/api/v1${e.path}`,
        headers: { 'x-api-key': api.apiKey },
      });
      if (e.group === ANY_ENDPOINT_GROUP) {
        expect(res.statusCode, key(e)).toBe(200);
        continue;
      }
      expect(res.statusCode, key(e)).toBe(403);
      expect(res.json(), key(e)).toMatchObject({ code: 'ENDPOINT_NOT_ALLOWED', details: { group: e.group } });
    }
  });
});
