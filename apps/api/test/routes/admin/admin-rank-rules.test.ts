import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TAuditEntry, TUserRole } from '@docflow/contracts';
import { buildTestApp, type TestApp } from '../../helper';
import { createTestUser } from '../../support/api-keys';

// Issue 28: the rank rules of user management apply to every admin action on another user's resources (custom keys,
// plans), nobody changes their own plan or keys through the admin API, and refusals are audited with their reason.

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
}, 60_000);
afterAll(() => t?.close());

const api = (token: string, method: string, url: string, payload?: unknown) =>
  t.app.inject({
    method: method as 'GET',
    url: `/api/v1${url}`,
    headers: { authorization: `Bearer ${token}` },
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
const person = (role: TUserRole) => createTestUser(t, { role, name: `A ${role}` });
const customKeyFor = (token: string, userId: string) =>
  api(token, 'POST', '/admin/api-keys/custom', { userId, customLimits: {}, keyOptions: { name: 'Made by an admin' } });

async function auditOf(token: string, action: string): Promise<TAuditEntry[]> {
  const res = await api(token, 'GET', `/admin/audit-log?action=${encodeURIComponent(action)}&limit=200`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().data.entries as TAuditEntry[];
}

describe('403: custom keys follow the rank rules', () => {
  it("an admin cannot mint a key for the owner, a peer or a super_admin, nor for themselves; a user's is fine", async () => {
    const admin = await person('admin');
    const owner = await person('owner');
    const peer = await person('admin');
    const superAdmin = await person('super_admin');
    const user = await person('user');

    const forOwner = await customKeyFor(admin.accessToken, owner.userId);
    expect(forOwner.statusCode).toBe(403);
    expect(forOwner.json()).toMatchObject({ code: 'FORBIDDEN', details: { rule: 'owner-protected' } });
    expect(forOwner.json().data).toBeUndefined();
    expect((await customKeyFor(admin.accessToken, peer.userId)).json()).toMatchObject({ details: { rule: 'rank' } });
    expect((await customKeyFor(admin.accessToken, superAdmin.userId)).statusCode).toBe(403);
    const forSelf = await customKeyFor(admin.accessToken, admin.userId);
    expect(forSelf.statusCode).toBe(403);
    expect(forSelf.json()).toMatchObject({ code: 'SELF_ACTION_FORBIDDEN', details: { rule: 'self' } });
    const superForSelf = await customKeyFor(superAdmin.accessToken, superAdmin.userId);
    expect(superForSelf.json()).toMatchObject({ code: 'SELF_ACTION_FORBIDDEN', details: { rule: 'self' } });

    // Nothing was made for the refused ones.
    const list = await api(owner.accessToken, 'GET', `/admin/api-keys/custom?limit=100`);
    const owners = (list.json().data.apiKeys as Array<{ owner: { id: string } }>).map((k) => k.owner.id);
    expect(owners).not.toContain(owner.userId);
    expect(owners).not.toContain(admin.userId);
    // The owner, whom nobody ranks above, makes their own (the keys page's Custom type).
    expect((await customKeyFor(owner.accessToken, owner.userId)).statusCode).toBe(201);

    const forUser = await customKeyFor(admin.accessToken, user.userId);
    expect(forUser.statusCode, forUser.body).toBe(201);
    expect(forUser.json().data.apiKey.key).toEqual(expect.any(String));
  });

  it("an admin cannot change the limits of, or delete, a custom key of a super_admin (the super_admin's superior can)", async () => {
    const admin = await person('admin');
    const superAdmin = await person('super_admin');
    const owner = await person('owner');
    const made = await customKeyFor(owner.accessToken, superAdmin.userId);
    expect(made.statusCode, made.body).toBe(201);
    const id = made.json().data.apiKey.id as string;

    const limits = await api(admin.accessToken, 'PUT', `/admin/api-keys/custom/${id}/limits`, {
      customLimits: { maxRequestsPerMinute: 5 },
    });
    expect(limits.json()).toMatchObject({ code: 'FORBIDDEN', details: { rule: 'rank' } });
    const del = await api(admin.accessToken, 'DELETE', `/admin/api-keys/custom/${id}`);
    expect(del.json()).toMatchObject({ code: 'FORBIDDEN', details: { rule: 'rank' } });
    expect((await api(owner.accessToken, 'DELETE', `/admin/api-keys/custom/${id}`)).statusCode).toBe(200);
  });
});

describe('403: nobody changes their own plan or role through the admin API', () => {
  it('PUT /admin/users/<self> with a plan (even the current one) or a role is SELF_ACTION_FORBIDDEN; a name is fine', async () => {
    const admin = await person('admin');
    const plan = await api(admin.accessToken, 'PUT', `/admin/users/${admin.userId}`, { plan: 'enterprise' });
    expect(plan.statusCode).toBe(403);
    expect(plan.json()).toMatchObject({
      code: 'SELF_ACTION_FORBIDDEN',
      details: { rule: 'self', action: 'change-plan' },
    });
    expect((await api(admin.accessToken, 'PUT', `/admin/users/${admin.userId}`, { plan: 'free' })).statusCode).toBe(
      403,
    );
    const role = await api(admin.accessToken, 'PUT', `/admin/users/${admin.userId}`, { role: 'user' });
    expect(role.json()).toMatchObject({ code: 'SELF_ACTION_FORBIDDEN', details: { rule: 'self' } });
    const me = await api(admin.accessToken, 'GET', `/admin/users/${admin.userId}`);
    expect(me.json().data.user).toMatchObject({ role: 'admin', activeplan: null });

    const renamed = await api(admin.accessToken, 'PUT', `/admin/users/${admin.userId}`, { name: 'Renamed Admin' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    // Another user's plan is the admin's to grant.
    const user = await person('user');
    const granted = await api(admin.accessToken, 'PUT', `/admin/users/${user.userId}`, { plan: 'pro' });
    expect(granted.statusCode, granted.body).toBe(200);
  });
});

describe('refused admin actions are audited with their reason', () => {
  it('test-service probes of 169.254.169.254 and [::1]: a .refused entry with the URL, the code and the reason', async () => {
    const admin = await person('admin');
    for (const url of ['http://169.254.169.254/latest/meta-data/', 'http://[::1]:5432/']) {
      const res = await api(admin.accessToken, 'POST', '/admin/system/test-service', { url, timeout: 500 });
      expect(res.statusCode, res.body).toBe(403);
    }
    const entries = (await auditOf(admin.accessToken, 'admin.test_service.refused')).filter(
      (e) => e.actor?.id === admin.userId,
    );
    expect(entries.map((e) => e.target?.id).sort()).toEqual([
      'http://169.254.169.254/latest/meta-data/',
      'http://[::1]:5432/',
    ]);
    for (const e of entries)
      expect(e.details).toMatchObject({ outcome: 'refused', status: 403, code: 'URL_NOT_ALLOWED' });
    expect(String(entries[0]!.details!.reason)).not.toBe('');
    // And no success was written for them.
    expect(
      (await auditOf(admin.accessToken, 'admin.test_service')).filter((e) => e.actor?.id === admin.userId),
    ).toEqual([]);
  });

  it("a refused owner demotion and a refused key for the owner: actor, target (the owner's e-mail), rule", async () => {
    const superAdmin = await person('super_admin');
    const admin = await person('admin');
    const owner = await person('owner');
    expect(
      (await api(superAdmin.accessToken, 'PUT', `/admin/users/${owner.userId}`, { role: 'user' })).statusCode,
    ).toBe(403);
    expect((await customKeyFor(admin.accessToken, owner.userId)).statusCode).toBe(403);
    expect(
      (await api(admin.accessToken, 'PUT', `/admin/users/${admin.userId}`, { plan: 'enterprise' })).statusCode,
    ).toBe(403);

    const demotion = (await auditOf(superAdmin.accessToken, 'admin.user.update.refused')).find(
      (e) => e.target?.id === owner.userId,
    );
    expect(demotion).toMatchObject({
      actor: { id: superAdmin.userId },
      target: { type: 'user', id: owner.userId, label: owner.email },
      details: { outcome: 'refused', status: 403, code: 'FORBIDDEN', rule: 'owner-protected' },
    });
    const key = (await auditOf(superAdmin.accessToken, 'admin.key.create.refused')).find(
      (e) => e.actor?.id === admin.userId,
    );
    expect(key).toMatchObject({
      target: { type: 'user', id: owner.userId, label: owner.email },
      details: { code: 'FORBIDDEN', rule: 'owner-protected' },
    });
    const self = (await auditOf(superAdmin.accessToken, 'admin.user.update.refused')).find(
      (e) => e.actor?.id === admin.userId,
    );
    expect(self).toMatchObject({ details: { code: 'SELF_ACTION_FORBIDDEN', rule: 'self' } });
  });

  it('a user without the capability is refused and audited; successes stay as they were', async () => {
    const user = await person('user');
    const other = await person('user');
    const owner = await person('owner');
    expect((await customKeyFor(user.accessToken, other.userId)).statusCode).toBe(403);
    const refused = (await auditOf(owner.accessToken, 'admin.key.create.refused')).find(
      (e) => e.actor?.id === user.userId,
    );
    expect(refused).toMatchObject({ details: { code: 'INSUFFICIENT_ROLE', status: 403 } });

    expect((await customKeyFor(owner.accessToken, other.userId)).statusCode).toBe(201);
    const made = (await auditOf(owner.accessToken, 'admin.key.create')).filter((e) => e.actor?.id === owner.userId);
    expect(made).toHaveLength(1);
    expect(
      (await auditOf(owner.accessToken, 'admin.key.create.refused')).some((e) => e.actor?.id === owner.userId),
    ).toBe(false);
  });
});
