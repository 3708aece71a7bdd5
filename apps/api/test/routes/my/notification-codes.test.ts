import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helper';
import { createTestUser } from '../../support/api-keys';

describe('notifications carry their event code and values', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const call = (token: string, method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: { authorization: `Bearer ${token}` },
      ...(payload ? { payload } : {}),
    });

  it('a created key and a started trial are told by code, with the values a reader needs', async () => {
    const { accessToken } = await createTestUser(t);
    expect((await call(accessToken, 'POST', '/my/subscriptions', { planName: 'pro' })).statusCode).toBe(201);
    expect(
      (await call(accessToken, 'POST', '/my/api-keys', { name: 'Backend', environment: 'production' })).statusCode,
    ).toBe(201);
    const res = await call(accessToken, 'GET', '/notifications');
    expect(res.statusCode).toBe(200);
    const byCode = new Map(
      (res.json().data.notifications as Array<{ code?: string; params?: Record<string, unknown>; title: string }>).map(
        (n) => [n.code, n],
      ),
    );
    expect(byCode.get('api-key.created')).toMatchObject({
      title: 'Clé API créée',
      params: { name: 'Backend', plan: 'Pro', environment: 'production' },
    });
    expect(byCode.get('trial.started')?.params).toMatchObject({ plan: 'Pro', days: 14 });
    expect(byCode.get('trial.started')?.params?.until).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});
