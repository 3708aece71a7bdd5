import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { buildTestApp, type TestApp } from '../../helper';
import { createTestUser, createUserWithApiKey } from '../../support/api-keys';
import { apiKeys, notifications } from '../../../src/data/schema/index';
import { sha256 } from '../../../src/lib/tokens';

describe('/my/api-keys', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const call = (token: string, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: object) =>
    t.app.inject({
      method,
      url: `/api/v1/my${url}`,
      headers: { authorization: `Bearer ${token}` },
      ...(payload ? { payload } : {}),
    });

  it('needs a dashboard access token (an API key is not one)', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/my/api-keys' })).statusCode).toBe(401);
    const { apiKey } = await createUserWithApiKey(t);
    expect((await call(apiKey, 'GET', '/api-keys')).statusCode).toBe(401);
  });

  it('creates a key: full key once, hash and 12-char prefix stored, DTO per spec', async () => {
    const { accessToken, userId } = await createTestUser(t);
    const res = await call(accessToken, 'POST', '/api-keys', { name: 'My first key', environment: 'production' });
    expect(res.statusCode).toBe(201);
    const key = res.json().data.apiKey;
    expect(key).toMatchObject({
      name: 'My first key',
      environment: 'production',
      isActive: true,
      planName: 'free', // pro is not owned: the default falls back to free
      planDisplayName: 'Free',
      currentUsage: 0,
      limits: {
        maxRequestsPerMinute: 5,
        maxRequestsPerHour: 100,
        maxRequestsPerMonth: 1000,
        maxFileSize: 5_242_880,
        maxPagesPerPdf: 10,
        burstLimit: 10,
      },
      allowedEndpoints: ['conversion'],
      lastUsedAt: null,
      expiresAt: null,
      keyType: 'standard',
      customPlan: null,
    });
    expect(key.key).toMatch(/^dfk_live_/);
    expect(key.keyPrefix).toBe(key.key.slice(0, 12));
    const [row] = await t.app.db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    expect(row!.keyHash).toBe(sha256(key.key));
    expect(JSON.stringify(row)).not.toContain(key.key);
    // Never shown again.
    const again = await call(accessToken, 'GET', `/api-keys/${key.id}`);
    expect(again.json().data.apiKey.key).toBeUndefined();
    const list = await call(accessToken, 'GET', '/api-keys');
    expect(list.json().data.apiKeys[0].key).toBeUndefined();
    const notes = await t.app.db.select().from(notifications).where(eq(notifications.userId, userId));
    expect(notes.map((n) => n.title)).toContain('Clé API créée');
  });

  it('defaults to pro when owned, development environment; expiresAt follows validityDays', async () => {
    const { accessToken } = await createTestUser(t);
    expect((await call(accessToken, 'POST', '/subscriptions', { planName: 'pro' })).statusCode).toBe(201);
    const res = await call(accessToken, 'POST', '/api-keys', { name: 'Backend' });
    expect(res.json().data.apiKey).toMatchObject({ planName: 'pro', environment: 'development' });
    expect(res.json().data.apiKey.key).toMatch(/^dfk_test_/);

    await t.database.sql.exec(`UPDATE plans SET validity_days = 30 WHERE name = 'enterprise'`);
    try {
      expect((await call(accessToken, 'POST', '/subscriptions', { planName: 'enterprise' })).statusCode).toBe(201);
      const ent = (await call(accessToken, 'POST', '/api-keys', { name: 'Ent key', planName: 'enterprise' })).json()
        .data.apiKey;
      const days = (Date.parse(ent.expiresAt) - Date.parse(ent.createdAt)) / 86_400_000;
      expect(days).toBeCloseTo(30, 5);
    } finally {
      await t.database.sql.exec(`UPDATE plans SET validity_days = NULL WHERE name = 'enterprise'`);
    }
  });

  it('validates name and environment; refuses a plan the user does not own', async () => {
    const { accessToken } = await createTestUser(t);
    for (const name of ['ab', 'x'.repeat(101), 'bad/name!', '']) {
      const r = await call(accessToken, 'POST', '/api-keys', { name });
      expect(r.statusCode).toBe(422);
      expect(r.json().code).toBe('VALIDATION_ERROR');
    }
    expect((await call(accessToken, 'POST', '/api-keys', { name: 'Clé été_2-x' })).statusCode).toBe(201);
    expect((await call(accessToken, 'POST', '/api-keys', { name: 'Good name', environment: 'qa' })).statusCode).toBe(
      422,
    );
    const pro = await call(accessToken, 'POST', '/api-keys', { name: 'Pro key', planName: 'pro' });
    expect(pro.statusCode).toBe(422);
    expect(pro.json().code).toBe('PLAN_NOT_OWNED');
    expect((await call(accessToken, 'POST', '/api-keys', { name: 'Gold key', planName: 'gold' })).statusCode).toBe(404);
  });

  it('counts keys per plan: 422 KEY_LIMIT_REACHED past maxApiKeysPerUser; deleted keys free a slot', async () => {
    const { accessToken } = await createTestUser(t);
    const first = await call(accessToken, 'POST', '/api-keys', { name: 'Free one' });
    expect(first.statusCode).toBe(201);
    const second = await call(accessToken, 'POST', '/api-keys', { name: 'Free two' });
    expect(second.statusCode).toBe(422);
    expect(second.json()).toMatchObject({
      code: 'KEY_LIMIT_REACHED',
      details: { planName: 'free', maxApiKeysPerUser: 1 },
    });
    // Disabled keys still count.
    await call(accessToken, 'PUT', `/api-keys/${first.json().data.apiKey.id}`, { isActive: false });
    expect((await call(accessToken, 'POST', '/api-keys', { name: 'Free two' })).statusCode).toBe(422);
    // Another plan has its own allowance.
    await call(accessToken, 'POST', '/subscriptions', { planName: 'pro' });
    const pros = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        call(accessToken, 'POST', '/api-keys', { name: `Pro ${i}`, planName: 'pro' }),
      ),
    );
    expect(pros.filter((r) => r.statusCode === 201)).toHaveLength(5);
    expect(pros.filter((r) => r.statusCode === 422)).toHaveLength(1);
    await call(accessToken, 'DELETE', `/api-keys/${first.json().data.apiKey.id}`);
    expect((await call(accessToken, 'POST', '/api-keys', { name: 'Free again', planName: 'free' })).statusCode).toBe(
      201,
    );
  });

  it('caps key creations per plan per 24 h, deleted keys included: 429 with Retry-After', async () => {
    const { accessToken } = await createTestUser(t);
    // Free: one key at a time, five creations a day (max(5, 2 × keys)).
    for (let i = 0; i < 5; i++) {
      const created = await call(accessToken, 'POST', '/api-keys', { name: `Churn ${i}` });
      expect(created.statusCode).toBe(201);
      expect((await call(accessToken, 'DELETE', `/api-keys/${created.json().data.apiKey.id}`)).statusCode).toBe(200);
    }
    const refused = await call(accessToken, 'POST', '/api-keys', { name: 'Churn 5' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({
      code: 'RATE_LIMIT_EXCEEDED',
      details: { planName: 'free', keyCreationsPerDay: 5 },
    });
    const retry = Number(refused.headers['retry-after']);
    expect(retry).toBeGreaterThan(86_400 - 120);
    expect(retry).toBeLessThanOrEqual(86_400);
    // Another plan has its own allowance.
    await call(accessToken, 'POST', '/subscriptions', { planName: 'pro' });
    expect((await call(accessToken, 'POST', '/api-keys', { name: 'Pro key', planName: 'pro' })).statusCode).toBe(201);
  });

  it('lists with pagination, isActive filter and this month usage', async () => {
    const { accessToken, apiKey } = await createUserWithApiKey(t, { plan: 'pro' });
    for (let i = 0; i < 3; i++) await call(accessToken, 'POST', '/api-keys', { name: `Extra ${i}`, planName: 'pro' });
    const all = await call(accessToken, 'GET', '/api-keys?limit=2&page=1');
    expect(all.json().data.pagination).toEqual({ page: 1, limit: 2, total: 4, totalPages: 2 });
    expect(all.json().data.apiKeys).toHaveLength(2);
    const page2 = await call(accessToken, 'GET', '/api-keys?limit=2&page=2');
    expect(page2.json().data.apiKeys).toHaveLength(2);
    const ids = [...all.json().data.apiKeys, ...page2.json().data.apiKeys].map((k: { id: string }) => k.id);
    expect(new Set(ids).size).toBe(4);
    const off = ids[0];
    await call(accessToken, 'PUT', `/api-keys/${off}`, { isActive: false });
    expect(
      (await call(accessToken, 'GET', '/api-keys?isActive=false')).json().data.apiKeys.map((k: { id: string }) => k.id),
    ).toEqual([off]);
    expect((await call(accessToken, 'GET', '/api-keys?isActive=true')).json().data.pagination.total).toBe(3);

    for (let i = 0; i < 3; i++)
      await t.app.inject({ method: 'GET', url: '/api/v1/ping', headers: { 'x-api-key': apiKey } });
    await t.app.apiKeyGuard.meter.flush();
    const withStats = await call(accessToken, 'GET', '/api-keys?includeStats=true&limit=10');
    const used = withStats.json().data.apiKeys.find((k: { keyPrefix: string }) => k.keyPrefix === apiKey.slice(0, 12));
    expect(used.currentUsage).toBe(3);
    expect(used.lastUsedAt).not.toBeNull();
  });

  it('keeps the last four characters of the secret, and nothing more, at creation and regeneration', async () => {
    const { accessToken, apiKey, keyId } = await createUserWithApiKey(t, { plan: 'pro' });
    const listed = (await call(accessToken, 'GET', '/api-keys')).json().data.apiKeys;
    expect(listed.find((k: { id: string }) => k.id === keyId).keyLastFour).toBe(apiKey.slice(-4));
    const regen = (await call(accessToken, 'POST', `/api-keys/${keyId}/regenerate`)).json().data.apiKey;
    expect(regen.keyLastFour).toBe(regen.key.slice(-4));
    const [row] = await t.app.db.select().from(apiKeys).where(eq(apiKeys.id, keyId));
    expect(row!.keyLastFour).toBe(regen.key.slice(-4));
    // Of the secret only the public prefix (12) and the last four are stored: the rest only as its hash.
    const stored = JSON.stringify(row);
    expect(stored).not.toContain(regen.key.slice(12, -4));
  });

  it('shows no last four for a key made before they were kept', async () => {
    const { accessToken, keyId } = await createUserWithApiKey(t, { plan: 'pro' });
    await t.app.db.update(apiKeys).set({ keyLastFour: null }).where(eq(apiKeys.id, keyId));
    const listed = (await call(accessToken, 'GET', '/api-keys')).json().data.apiKeys;
    expect(listed.find((k: { id: string }) => k.id === keyId).keyLastFour).toBeNull();
  });

  it('renames; regenerate keeps id and usage, shows the new key once', async () => {
    const { accessToken, apiKey, keyId, userId } = await createUserWithApiKey(t, { plan: 'pro' });
    await t.app.inject({ method: 'GET', url: '/api/v1/ping', headers: { 'x-api-key': apiKey } });
    await t.app.apiKeyGuard.meter.flush();
    const renamed = await call(accessToken, 'PUT', `/api-keys/${keyId}`, { name: 'Renamed key' });
    expect(renamed.json().data.apiKey.name).toBe('Renamed key');
    expect((await call(accessToken, 'PUT', `/api-keys/${keyId}`, {})).statusCode).toBe(422);
    const regen = await call(accessToken, 'POST', `/api-keys/${keyId}/regenerate`);
    const dto = regen.json().data.apiKey;
    expect(dto.id).toBe(keyId);
    expect(dto.key).toMatch(/^dfk_test_/);
    expect(dto.key).not.toBe(apiKey);
    expect(dto.keyPrefix).toBe(dto.key.slice(0, 12));
    expect(dto.currentUsage).toBe(1);
    const notes = await t.app.db.select().from(notifications).where(eq(notifications.userId, userId));
    expect(notes.map((n) => n.title)).toContain('Clé API régénérée');
  });

  it("another user's key is 404 for read, change, regenerate and delete", async () => {
    const owner = await createUserWithApiKey(t);
    const thief = await createTestUser(t);
    for (const [method, url, payload] of [
      ['GET', `/api-keys/${owner.keyId}`, undefined],
      ['PUT', `/api-keys/${owner.keyId}`, { isActive: false }],
      ['POST', `/api-keys/${owner.keyId}/regenerate`, undefined],
      ['DELETE', `/api-keys/${owner.keyId}`, undefined],
    ] as const) {
      const r = await call(thief.accessToken, method, url, payload);
      expect(r.statusCode).toBe(404);
      expect(r.json().code).toBe('NOT_FOUND');
    }
    expect((await call(thief.accessToken, 'GET', '/api-keys')).json().data.apiKeys).toEqual([]);
    // The key is untouched and still works.
    const [row] = await t.app.db.select().from(apiKeys).where(eq(apiKeys.id, owner.keyId));
    expect(row).toMatchObject({ isActive: true, deletedAt: null });
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/v1/ping', headers: { 'x-api-key': owner.apiKey } })).statusCode,
    ).toBe(200);
    expect((await call(thief.accessToken, 'GET', '/api-keys/not-a-uuid')).statusCode).toBe(422);
  });
});
