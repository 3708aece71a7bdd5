import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../src/data/db';
import { ensureOwner } from '../../../src/services/accounts/seed-owner';
import { verifyPassword } from '../../../src/services/passwords';
import { buildTestApp, openTestDatabase, type TestApp } from '../../helper';

describe('ensureOwner (ADMIN_EMAIL / ADMIN_PASSWORD at start-up)', () => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  const owners = () =>
    database.sql.query<{
      email: string;
      role: string;
      password_hash: string;
      email_verified_at: Date | null;
      registration_source: string;
      name: string;
    }>(
      "SELECT email, role, password_hash, email_verified_at, registration_source, name FROM users WHERE role = 'owner'",
    );

  it('does nothing without both settings', async () => {
    expect(await ensureOwner(database.db, { name: 'Owner' })).toBe(false);
    expect(await ensureOwner(database.db, { email: 'o@example.com', name: 'Owner' })).toBe(false);
    expect(await owners()).toHaveLength(0);
  });

  it('creates a verified owner once, e-mail lower-cased, password hashed', async () => {
    expect(
      await ensureOwner(database.db, { email: ' Boss@Example.com ', password: 'Owner-Secret-2024', name: 'The Boss' }),
    ).toBe(true);
    const [owner] = await owners();
    expect(owner).toMatchObject({
      email: 'boss@example.com',
      role: 'owner',
      registration_source: 'admin',
      name: 'The Boss',
    });
    expect(owner!.email_verified_at).not.toBeNull();
    expect(await verifyPassword(owner!.password_hash, 'Owner-Secret-2024')).toBe(true);

    // A restart with the same settings (or a changed password) leaves the account alone.
    expect(
      await ensureOwner(database.db, { email: 'boss@example.com', password: 'Different-Secret-99', name: 'X' }),
    ).toBe(false);
    const after = await owners();
    expect(after).toHaveLength(1);
    expect(await verifyPassword(after[0]!.password_hash, 'Owner-Secret-2024')).toBe(true);
  });
});

describe('the seeded owner signs in through the API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
    await ensureOwner(t.app.db, { email: 'owner@example.com', password: 'Owner-Secret-2024', name: 'Owner' });
  });
  afterAll(() => t.close());

  it('logs in with role owner', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/login',
      payload: { email: 'owner@example.com', password: 'Owner-Secret-2024' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.user).toMatchObject({ role: 'owner', emailVerified: true, registrationSource: 'admin' });
  });
});
