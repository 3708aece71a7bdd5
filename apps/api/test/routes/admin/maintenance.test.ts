import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../helper';
import { buildTestAppWith, createTestUser, createUserWithApiKey } from '../../support/api-keys';
import { sleep } from '../../support/limits';

let t: TestApp;
let other: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
  // A second API node on the same database: maintenance is shared through it.
  other = await buildTestAppWith(() => undefined, { database: t.database });
}, 60_000);
afterAll(async () => {
  await other?.close(); // it shares the database: closing it leaves the database open
  await t?.close();
});

const ping = (app: TestApp, key: string) => app.app.inject({ url: '/api/v1/ping', headers: { 'x-api-key': key } });

describe('maintenance mode', () => {
  it("answers 503 MAINTENANCE with Retry-After on processing routes, except to admins' keys, on every node", async () => {
    const owner = await createUserWithApiKey(t, { role: 'owner' });
    const user = await createUserWithApiKey(t, { plan: 'free' });
    const viewer = await createTestUser(t);
    const set = (enabled: boolean) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/admin/system/maintenance',
        headers: { authorization: `Bearer ${owner.accessToken}` },
        payload: { enabled, message: 'Mise à jour des moteurs', retryAfterSeconds: 120 },
      });
    expect((await ping(other, user.apiKey)).statusCode).toBe(200); // the other node has read "off"
    const on = await set(true);
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json().data.maintenance).toMatchObject({
      enabled: true,
      message: 'Mise à jour des moteurs',
      by: owner.userId,
    });

    const refused = await ping(t, user.apiKey);
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toMatchObject({ code: 'MAINTENANCE', error: 'Mise à jour des moteurs' });
    expect(refused.headers['retry-after']).toBe('120');
    expect((await ping(t, owner.apiKey)).statusCode).toBe(200);
    // The dashboard still answers, and says so.
    expect(
      (await t.app.inject({ url: '/api/v1/my/api-keys', headers: { authorization: `Bearer ${viewer.accessToken}` } }))
        .statusCode,
    ).toBe(200);
    const status = await t.app.inject({ url: '/api/v1/status' });
    expect(status.json().data.maintenance).toMatchObject({ enabled: true, message: 'Mise à jour des moteurs' });

    // The other node reads the switch within its refresh (2 s).
    let seen = 0;
    for (let i = 0; i < 30 && seen !== 503; i++) {
      seen = (await ping(other, user.apiKey)).statusCode;
      if (seen !== 503) await sleep(200);
    }
    expect(seen).toBe(503);

    expect((await set(false)).statusCode).toBe(200);
    expect((await ping(t, user.apiKey)).statusCode).toBe(200);
    const log = await t.app.inject({
      url: '/api/v1/admin/audit-log?limit=5',
      headers: { authorization: `Bearer ${owner.accessToken}` },
    });
    expect((log.json().data.entries as Array<{ action: string }>).map((e) => e.action).slice(0, 2)).toEqual([
      'admin.maintenance.off',
      'admin.maintenance.on',
    ]);
  });
});
