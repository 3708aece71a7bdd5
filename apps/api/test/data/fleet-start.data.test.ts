import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/data/db';
import { migrate } from '../../src/data/migrate';
import { ensureOwner } from '../../src/services/accounts/seed-owner';

/**
 * A fleet's first start: every node runs the start-up writes (migrations, then the owner of ADMIN_EMAIL) at once on a
 * fresh PostgreSQL. All of them must come up, and the database must hold each thing once.
 */
const adminUrl = process.env.TEST_DATABASE_URL;

describe.skipIf(!adminUrl)('four nodes starting at once on one fresh database', () => {
  const name = `docflow_fleet_${randomBytes(6).toString('hex')}`;
  const nodes: Database[] = [];
  const admin = async (sql: string) => {
    const c = new pg.Client({ connectionString: adminUrl });
    await c.connect();
    try {
      await c.query(sql);
    } finally {
      await c.end();
    }
  };
  afterAll(async () => {
    await Promise.all(nodes.map((n) => n.close().catch(() => undefined)));
    await admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  });

  it('each migrates and seeds the owner without failing; one migration run and one owner result', async () => {
    await admin(`CREATE DATABASE ${name}`);
    const url = new URL(adminUrl!);
    url.pathname = `/${name}`;
    for (let i = 0; i < 4; i++) nodes.push(await openDatabase({ databaseUrl: url.toString() }));
    const owner = { email: 'Owner@Example.com', password: 'Kangaroo-Orbit-42', name: 'Owner' };
    // Each step at once on every node, as when the nodes reach it together (on a database already migrated, they
    // reach the owner's step together, each having found no owner before any inserts it).
    const settled = async <T>(step: (n: Database) => Promise<T>): Promise<T[]> => {
      const all = await Promise.allSettled(nodes.map(step));
      expect(all.map((s) => (s.status === 'rejected' ? String(s.reason) : 'ok'))).toEqual(['ok', 'ok', 'ok', 'ok']);
      return all.map((s) => (s as PromiseFulfilledResult<T>).value);
    };
    const applied = await settled((n) => migrate(n));
    // One node applied every migration; the others, taking their turn after it, found nothing left to apply.
    expect(applied.filter((a) => a.length > 0)).toHaveLength(1);
    const created = await settled((n) => ensureOwner(n.db, owner));
    expect(created.filter(Boolean)).toHaveLength(1);
    const owners = await nodes[0]!.sql.query<{ email: string; role: string }>(
      "select email, role from users where role = 'owner'",
    );
    expect(owners).toEqual([{ email: 'owner@example.com', role: 'owner' }]);
    const migrations = await nodes[0]!.sql.query<{ n: number }>('select count(*)::int as n from schema_migrations');
    expect(migrations[0]!.n).toBe(applied.find((a) => a.length)!.length);
  }, 120_000);
});
