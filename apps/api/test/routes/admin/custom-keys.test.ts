import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helper';
import { createTestUser, createUserWithApiKey } from '../../support/api-keys';
import { form } from '../../fixtures/multipart';
import { numberedPdf } from '../../fixtures/pdfs';

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await buildTestApp();
  admin = (await createTestUser(t, { role: 'admin' })).accessToken;
}, 60_000);
afterAll(() => t?.close());

const as = { authorization: '' };
const call = (method: string, url: string, payload?: unknown) =>
  t.app.inject({
    method: method as 'GET',
    url: `/api/v1/admin/api-keys/custom${url}`,
    headers: { ...as, authorization: `Bearer ${admin}` },
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
const preview = async (customLimits: object, userId?: string) => {
  const res = await call('POST', '/preview', { customLimits, ...(userId ? { userId } : {}) });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.preview as {
    valid: boolean;
    errors: string[];
    warnings: string[];
    isHighLimit: boolean;
    suggestions: null | Record<string, number | object>;
  };
};

async function customKeyFor(customLimits: object) {
  const owner = await createTestUser(t);
  const res = await call('POST', '', { userId: owner.userId, customLimits, keyOptions: { name: 'Custom test key' } });
  expect(res.statusCode, res.body).toBe(201);
  return { key: res.json().data.apiKey.key as string, id: res.json().data.apiKey.id as string, owner };
}

describe('custom limits: template and preview (spec-2 sections 5 and 9)', () => {
  it('the template is the section 9 defaults', async () => {
    const res = await call('GET', '/template');
    expect(res.json().data.template).toEqual({
      maxRequestsPerMinute: 1000,
      maxRequestsPerHour: 10_000,
      maxRequestsPerMonth: 100_000,
      maxFileSize: 50 * 1_048_576,
      maxPagesPerPdf: 500,
      allowedEndpoints: ['pdf', 'conversion'],
      features: [],
      burstLimit: null,
      validityDays: null,
    });
    expect(res.json().data.bounds.maxRequestsPerMinute).toEqual({ min: 1, max: 10_000 });
  });

  it('reports every rule: bounds, minute ≤ hour ≤ month, file size floor, endpoints', async () => {
    expect(await preview({})).toMatchObject({ valid: true, errors: [], warnings: [], isHighLimit: false });
    const p = await preview({
      maxRequestsPerMinute: 0,
      maxRequestsPerHour: 100_001,
      maxFileSize: 1000,
      maxPagesPerPdf: 2001,
      validityDays: 3651,
      allowedEndpoints: ['pdf', 'teleport'],
    });
    expect(p.valid).toBe(false);
    expect(p.errors).toEqual([
      'Requêtes par minute : doit être entre 1 et 10 000',
      'Requêtes par heure : doit être entre 1 et 100 000',
      'Taille de fichier : doit être entre 1 Ko et 500 Mo',
      'Pages par PDF : doit être entre 1 et 2 000',
      'Validité (jours) : doit être entre 1 et 3 650',
      'Endpoints non pris en charge : teleport (autorisés : conversion, pdf, ocr, qrcode, batch, webhook)',
    ]);
    const order = await preview({ maxRequestsPerMinute: 500, maxRequestsPerHour: 400, maxRequestsPerMonth: 300 });
    expect(order.errors).toEqual([
      'Les requêtes par minute ne peuvent pas dépasser les requêtes par heure',
      'Les requêtes par heure ne peuvent pas dépasser les requêtes par mois',
    ]);
  });

  it("speaks the admin's language: English under Accept-Language: en, French under fr", async () => {
    const draft = {
      customLimits: {
        maxRequestsPerMinute: 0,
        maxFileSize: 1000,
        maxRequestsPerMonth: 600_000,
        allowedEndpoints: [],
      },
    };
    const ask = async (lang: string) =>
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/v1/admin/api-keys/custom/preview',
          headers: { authorization: `Bearer ${admin}`, 'accept-language': lang },
          payload: draft,
        })
      ).json().data.preview as { errors: string[]; warnings: string[] };
    const en = await ask('en-US,en;q=0.9');
    expect(en.errors).toEqual([
      'Requests per minute: must be between 1 and 10,000',
      'File size: must be between 1 KB and 500 MB',
      'Choose at least one endpoint group',
    ]);
    expect(en.warnings).toEqual(['High monthly limit: more than 500,000 requests']);
    const fr = await ask('fr');
    expect(fr.errors).toEqual([
      'Requêtes par minute : doit être entre 1 et 10 000',
      'Taille de fichier : doit être entre 1 Ko et 500 Mo',
      'Choisissez au moins un groupe d’endpoints',
    ]);
    expect(fr.warnings).toEqual(['Limite mensuelle élevée : plus de 500 000 requêtes']);
  });

  it('warns over 500,000 a month or 100 MB, and flags high limits (also over 5000 a minute)', async () => {
    const high = await preview({ maxRequestsPerMonth: 600_000, maxFileSize: 200 * 1_048_576 });
    expect(high).toMatchObject({ valid: true, isHighLimit: true });
    expect(high.warnings).toHaveLength(2);
    const minute = await preview({ maxRequestsPerMinute: 6000, maxRequestsPerHour: 60_000 });
    expect(minute).toMatchObject({ valid: true, isHighLimit: true, warnings: [] });
  });

  it("suggests 1.5 × the user's real peaks, with the section 9 minimums", async () => {
    const u = await createUserWithApiKey(t, { plan: 'free' });
    for (let i = 0; i < 4; i++) await t.app.inject({ url: '/api/v1/ping', headers: { 'x-api-key': u.apiKey } });
    await t.app.apiKeyGuard.meter.flush();
    const p = await preview({}, u.userId);
    expect(p.suggestions).toMatchObject({
      maxRequestsPerMinute: 100,
      maxRequestsPerHour: 1000,
      maxRequestsPerMonth: 10_000,
      maxFileSize: 5 * 1_048_576,
      basedOn: { peakPerMinute: 4, peakPerHour: 4, peakPerMonth: 4 },
    });
  });
});

describe('custom keys are enforced like a plan', () => {
  it('a key with 3 per minute refuses the 4th call in the minute', async () => {
    const { key } = await customKeyFor({ maxRequestsPerMinute: 3, maxRequestsPerHour: 100, maxRequestsPerMonth: 1000 });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await t.app.inject({ url: '/api/v1/ping', headers: { 'x-api-key': key } })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });

  it('a key with endpoints pdf only gets 403 on /ocr/extract and works on /pdf', async () => {
    const { key } = await customKeyFor({ allowedEndpoints: ['pdf'] });
    const f = form({}, [
      { field: 'file', content: await numberedPdf(1), filename: 'a.pdf', contentType: 'application/pdf' },
    ]);
    const ocr = await t.app.inject({
      method: 'POST',
      url: '/api/v1/ocr/extract',
      payload: f.payload,
      headers: { ...f.headers, 'x-api-key': key },
    });
    expect(ocr.statusCode).toBe(403);
    expect(ocr.json().code).toBe('ENDPOINT_NOT_ALLOWED');
    const g = form({}, [
      { field: 'file', content: await numberedPdf(2), filename: 'a.pdf', contentType: 'application/pdf' },
    ]);
    const info = await t.app.inject({
      method: 'POST',
      url: '/api/v1/pdf/analyze',
      payload: g.payload,
      headers: { ...g.headers, 'x-api-key': key },
    });
    expect(info.statusCode, info.body).toBe(200);
  });

  it('new limits apply to the very next call; a deleted key never works again', async () => {
    const { key, id } = await customKeyFor({});
    const ping = () => t.app.inject({ url: '/api/v1/ping', headers: { 'x-api-key': key } });
    expect((await ping()).statusCode).toBe(200);
    const upd = await call('PUT', `/${id}/limits`, {
      customLimits: { allowedEndpoints: ['qrcode'], maxFileSize: 2048 },
    });
    expect(upd.statusCode, upd.body).toBe(200);
    expect(upd.json().data.apiKey.customPlan.limits).toMatchObject({ allowedEndpoints: ['qrcode'], maxFileSize: 2048 });
    const f = form({}, [
      { field: 'file', content: await numberedPdf(1), filename: 'a.pdf', contentType: 'application/pdf' },
    ]);
    const pdf = await t.app.inject({
      method: 'POST',
      url: '/api/v1/pdf/analyze',
      payload: f.payload,
      headers: { ...f.headers, 'x-api-key': key },
    });
    expect(pdf.statusCode).toBe(403);
    expect((await call('PUT', `/${id}/limits`, { customLimits: { maxRequestsPerMinute: 0 } })).statusCode).toBe(422);
    expect((await call('DELETE', `/${id}`)).statusCode).toBe(200);
    expect((await ping()).statusCode).toBe(401);
    const list = await call('GET', `?search=Custom%20test&limit=100`);
    expect((list.json().data.apiKeys as Array<{ id: string }>).some((k) => k.id === id)).toBe(false);
  });

  it('lists custom keys with their owner, and refuses a key for a deactivated user', async () => {
    const { owner } = await customKeyFor({});
    const list = await call('GET', `?userId=${owner.userId}`);
    expect(list.json().data.apiKeys).toHaveLength(1);
    expect(list.json().data.apiKeys[0]).toMatchObject({
      keyType: 'custom',
      owner: { id: owner.userId },
      planDisplayName: 'Custom',
    });
    await t.app.inject({
      method: 'PATCH',
      url: `/api/v1/admin/users/${owner.userId}/status`,
      headers: { authorization: `Bearer ${admin}` },
      payload: { isActive: false },
    });
    const refused = await call('POST', '', {
      userId: owner.userId,
      customLimits: {},
      keyOptions: { name: 'Second key' },
    });
    expect(refused.statusCode).toBe(422);
  });
});
