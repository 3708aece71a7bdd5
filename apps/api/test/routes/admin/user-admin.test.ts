import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TUserRole } from '@docflow/contracts';
import { buildTestApp, type TestApp } from '../../helper';
import { createTestUser, createUserWithApiKey } from '../../support/api-keys';
import { registerBody } from '../auth/auth-helper';

let t: TestApp;

beforeAll(async () => {
  t = await buildTestApp();
}, 60_000);
afterAll(() => t?.close());

const as = (token: string) => ({ authorization: `Bearer ${token}` });
const api = (token: string, method: string, url: string, payload?: unknown) =>
  t.app.inject({
    method: method as 'GET',
    url: `/api/v1${url}`,
    headers: as(token),
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
const person = (role: TUserRole, name = `A ${role}`) => createTestUser(t, { role, name });

describe('the role hierarchy, on the server', () => {
  it('nobody deactivates, demotes or deletes themselves (their name they may change)', async () => {
    const me = await person('owner');
    expect(
      (await api(me.accessToken, 'PATCH', `/admin/users/${me.userId}/status`, { isActive: false })).json(),
    ).toMatchObject({
      code: 'SELF_ACTION_FORBIDDEN',
      details: { rule: 'self' },
    });
    expect((await api(me.accessToken, 'PUT', `/admin/users/${me.userId}`, { role: 'admin' })).statusCode).toBe(403);
    expect((await api(me.accessToken, 'DELETE', `/admin/users/${me.userId}`)).statusCode).toBe(403);
    const renamed = await api(me.accessToken, 'PUT', `/admin/users/${me.userId}`, { name: 'Owner Renamed' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().data.user.name).toBe('Owner Renamed');
  });

  it('nobody grants a role above their own, on creation or update', async () => {
    const admin = await person('admin');
    const user = await person('user');
    const made = await api(admin.accessToken, 'POST', '/admin/users', {
      email: 'grant@example.test',
      name: 'Grant Me',
      role: 'super_admin',
    });
    expect(made.json()).toMatchObject({ code: 'FORBIDDEN', details: { rule: 'grant-above-own' } });
    const up = await api(admin.accessToken, 'PUT', `/admin/users/${user.userId}`, { role: 'owner' });
    expect(up.json()).toMatchObject({ code: 'FORBIDDEN', details: { rule: 'grant-above-own' } });
    const ok = await api(admin.accessToken, 'PUT', `/admin/users/${user.userId}`, { role: 'admin' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().data.user.role).toBe('admin');
  });

  it('an admin acts only on lower ranks; a super_admin cannot touch an owner; an owner can', async () => {
    const admin = await person('admin');
    const otherAdmin = await person('admin');
    const superAdmin = await person('super_admin');
    const owner = await person('owner');
    const secondOwner = await person('owner');
    expect(
      (await api(admin.accessToken, 'PATCH', `/admin/users/${otherAdmin.userId}/status`, { isActive: false })).json(),
    ).toMatchObject({
      details: { rule: 'rank' },
    });
    expect((await api(admin.accessToken, 'DELETE', `/admin/users/${superAdmin.userId}`)).statusCode).toBe(403);
    for (const [method, url, body] of [
      ['PUT', `/admin/users/${owner.userId}`, { role: 'admin' }],
      ['PATCH', `/admin/users/${owner.userId}/status`, { isActive: false }],
      ['DELETE', `/admin/users/${owner.userId}`, undefined],
    ] as const) {
      const res = await api(superAdmin.accessToken, method, url, body);
      expect(res.json(), `${method} ${url}`).toMatchObject({ code: 'FORBIDDEN', details: { rule: 'owner-protected' } });
    }
    const demote = await api(superAdmin.accessToken, 'PUT', `/admin/users/${otherAdmin.userId}`, { role: 'user' });
    expect(demote.statusCode, demote.body).toBe(200);
    const handover = await api(owner.accessToken, 'PUT', `/admin/users/${secondOwner.userId}`, { role: 'super_admin' });
    expect(handover.statusCode, handover.body).toBe(200);
  });

  it('the last owner remains: two owners demoting each other at once, one of them stays owner', async () => {
    const a = await person('owner', 'Owner A');
    const b = await person('owner', 'Owner B');
    // Every other owner made by the earlier tests is deactivated so that A and B are the last two active owners.
    const others = (await api(a.accessToken, 'GET', '/admin/users?role=owner&limit=100')).json().data.users as Array<{
      id: string;
    }>;
    for (const o of others.filter((o) => o.id !== a.userId && o.id !== b.userId))
      expect((await api(a.accessToken, 'PATCH', `/admin/users/${o.id}/status`, { isActive: false })).statusCode).toBe(
        200,
      );
    const [ab, ba] = await Promise.all([
      api(a.accessToken, 'PUT', `/admin/users/${b.userId}`, { role: 'admin' }),
      api(b.accessToken, 'PUT', `/admin/users/${a.userId}`, { role: 'admin' }),
    ]);
    const statuses = [ab.statusCode, ba.statusCode].sort();
    expect(statuses[0], `${ab.body} ${ba.body}`).toBe(200);
    expect(statuses[1]).toBeGreaterThanOrEqual(403);
    const owners = (
      await t.app.inject({
        url: '/api/v1/admin/users?role=owner&includeInactive=false',
        headers: as(ab.statusCode === 200 ? a.accessToken : b.accessToken),
      })
    ).json().data.users;
    expect(owners).toHaveLength(1);
  });
});

describe('a deactivated or deleted user is cut off at once', () => {
  it('refuses their API key and their access token on the very next call, though the key was cached', async () => {
    const admin = await person('admin');
    const victim = await createUserWithApiKey(t, { plan: 'free' });
    const ping = () => t.app.inject({ url: '/api/v1/ping', headers: { 'x-api-key': victim.apiKey } });
    expect((await ping()).statusCode).toBe(200); // the key is now in the cache (trusted for a second)
    expect((await api(victim.accessToken, 'GET', '/my/api-keys')).statusCode).toBe(200);
    const off = await api(admin.accessToken, 'PATCH', `/admin/users/${victim.userId}/status`, { isActive: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().message).toBe('Utilisateur désactivé avec succès !');
    const refused = await ping();
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('ACCOUNT_DISABLED');
    expect((await api(victim.accessToken, 'GET', '/my/api-keys')).statusCode).toBeGreaterThanOrEqual(401);
    // Reactivated, the key works again; the dashboard session was ended and stays ended.
    expect(
      (await api(admin.accessToken, 'PATCH', `/admin/users/${victim.userId}/status`, { isActive: true })).statusCode,
    ).toBe(200);
    expect((await ping()).statusCode).toBe(200);
    expect((await api(victim.accessToken, 'GET', '/my/api-keys')).statusCode).toBe(401);
  });

  it('deletes a user with their keys, answering how many, and the key never works again', async () => {
    const admin = await person('admin');
    const victim = await createUserWithApiKey(t, { plan: 'free' });
    expect((await t.app.inject({ url: '/api/v1/ping', headers: { 'x-api-key': victim.apiKey } })).statusCode).toBe(200);
    const del = await api(admin.accessToken, 'DELETE', `/admin/users/${victim.userId}`);
    expect(del.statusCode, del.body).toBe(200);
    expect(del.json().data).toMatchObject({ deletedApiKeys: 1, deletedUser: { id: victim.userId } });
    expect(del.json().message).toBe('Utilisateur supprimé avec succès (1 clés API supprimées)');
    const after = await t.app.inject({ url: '/api/v1/ping', headers: { 'x-api-key': victim.apiKey } });
    expect(after.statusCode).toBe(401);
    expect((await api(admin.accessToken, 'GET', `/admin/users/${victim.userId}`)).statusCode).toBe(404);
  });
});

describe('users API', () => {
  it('creates a user with a temporary password that must be changed before anything else', async () => {
    const admin = await person('admin');
    const made = await api(admin.accessToken, 'POST', '/admin/users', {
      email: 'Temp.User@Example.test',
      name: 'Temp User',
      company: 'Temp Co',
      plan: 'pro',
    });
    expect(made.statusCode, made.body).toBe(201);
    const { user, tempPassword } = made.json().data;
    expect(user).toMatchObject({
      email: 'temp.user@example.test',
      registrationSource: 'admin',
      mustChangePassword: true,
      emailVerified: true,
      plan: 'pro',
    });
    expect(tempPassword).toMatch(/^\S{18}$/);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: user.email, password: tempPassword },
    });
    expect(login.statusCode, login.body).toBe(200);
    expect(login.json().data.user.mustChangePassword).toBe(true);
    const token = login.json().data.tokens.accessToken as string;
    const blocked = await api(token, 'GET', '/my/api-keys');
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json().code).toBe('PASSWORD_CHANGE_REQUIRED');
    expect((await api(token, 'GET', '/auth/me')).statusCode).toBe(200);
    const changed = await api(token, 'POST', '/auth/change-password', {
      currentPassword: tempPassword,
      newPassword: 'Lantern-Meadow-58',
      confirmPassword: 'Lantern-Meadow-58',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await api(token, 'GET', '/my/api-keys')).statusCode).toBe(200);
    expect((await api(token, 'GET', '/auth/me')).json().data.user.mustChangePassword).toBe(false);
  });

  it('answers the spec French validation messages', async () => {
    const admin = await person('admin');
    const bad = async (body: object) =>
      (await api(admin.accessToken, 'POST', '/admin/users', body)).json().error as string;
    expect(await bad({ email: '', name: 'Someone' })).toContain("L'email est requis");
    expect(await bad({ email: 'nope', name: 'Someone' })).toContain("Format d'email invalide");
    expect(await bad({ email: `${'a'.repeat(250)}@x.test`, name: 'Someone' })).toContain(
      "L'email ne peut pas dépasser 255 caractères",
    );
    expect(await bad({ email: 'ok@example.test', name: 'Someone', role: 'god' })).toContain('Rôle invalide');
  });

  it('lists with search over name, e-mail and company, role and source filters, sort, pages and the four counts', async () => {
    const admin = await person('admin');
    await createTestUser(t, { name: 'Zebra Searchable', email: 'zebra@example.test' });
    await createTestUser(t, { name: 'Yak Searchable', email: 'yak@example.test' });
    const page = await api(
      admin.accessToken,
      'GET',
      '/admin/users?search=SEARCHABLE&sortBy=name&sortOrder=asc&limit=1',
    );
    expect(page.statusCode, page.body).toBe(200);
    const data = page.json().data;
    expect(data.users.map((u: { name: string }) => u.name)).toEqual(['Yak Searchable']);
    expect(data.pagination).toEqual({ page: 1, limit: 1, total: 2, totalPages: 2 });
    expect(data.counts.total).toBeGreaterThanOrEqual(data.counts.active);
    const byMail = await api(admin.accessToken, 'GET', '/admin/users/search?q=zebra@');
    expect(byMail.json().data.users.map((u: { email: string }) => u.email)).toEqual(['zebra@example.test']);
    const admins = (await api(admin.accessToken, 'GET', '/admin/users?role=admin&limit=100')).json().data
      .users as Array<{ role: string }>;
    expect(admins.length).toBeGreaterThan(0);
    expect(admins.every((u) => u.role === 'admin')).toBe(true);
    const web = (await api(admin.accessToken, 'GET', '/admin/users?source=admin&limit=100')).json().data
      .users as Array<{ registrationSource: string }>;
    expect(web.every((u) => u.registrationSource === 'admin')).toBe(true);
  });

  it('writes every admin action to the audit log: who, what, on whom, from where', async () => {
    const admin = await person('admin', 'Auditing Admin');
    const target = await person('user', 'Audited User');
    await api(admin.accessToken, 'PUT', `/admin/users/${target.userId}`, { company: 'Audit Inc' });
    await api(admin.accessToken, 'PATCH', `/admin/users/${target.userId}/status`, { isActive: false });
    const log = await api(admin.accessToken, 'GET', `/admin/audit-log?targetId=${target.userId}`);
    expect(log.statusCode, log.body).toBe(200);
    const entries = log.json().data.entries as Array<{
      action: string;
      actor: { id: string; name: string };
      target: { id: string };
      ip: string;
      details: unknown;
    }>;
    expect(entries.map((e) => e.action)).toEqual(['admin.user.deactivate', 'admin.user.update']);
    for (const e of entries) {
      expect(e.actor).toMatchObject({ id: admin.userId, name: 'Auditing Admin' });
      expect(e.target.id).toBe(target.userId);
      expect(e.ip).toBe('127.0.0.1');
    }
    expect(entries[1]!.details).toEqual({ company: { from: null, to: 'Audit Inc' } });
  });

  it('records the registration source: web from the dashboard, api from a direct call, admin from the admin API', async () => {
    const admin = await person('admin');
    const fromWeb = registerBody();
    const fromApi = registerBody();
    const web = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/register',
      payload: fromWeb,
      headers: { 'x-docflow-client': 'dashboard' },
    });
    const direct = await t.app.inject({ method: 'POST', url: '/api/v1/auth/register', payload: fromApi });
    expect([web.statusCode, direct.statusCode]).toEqual([201, 201]);
    const sourceOf = async (email: string) =>
      (
        (await api(admin.accessToken, 'GET', `/admin/users/search?q=${encodeURIComponent(email)}`)).json().data
          .users as Array<{ registrationSource: string }>
      )[0]!.registrationSource;
    expect(await sourceOf(fromWeb.email as string)).toBe('web');
    expect(await sourceOf(fromApi.email as string)).toBe('api');
    const made = await api(admin.accessToken, 'POST', '/admin/users', {
      email: 'by-admin@example.test',
      name: 'By Admin',
    });
    expect(made.json().data.user.registrationSource).toBe('admin');
    const apiOnly = (await api(admin.accessToken, 'GET', '/admin/users?source=api&limit=100')).json().data;
    expect(apiOnly.counts.apiRegistrations).toBeGreaterThanOrEqual(1);
    expect(apiOnly.users.every((u: { registrationSource: string }) => u.registrationSource === 'api')).toBe(true);
  });
});
