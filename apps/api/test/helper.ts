import { readFileSync, readdirSync, existsSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import pg from 'pg';
import { openDatabase, type Database } from '../src/data/db';
import { migrate } from '../src/data/migrate';
import type { Mailer } from '../src/services/mailer';
import { pooledPglite } from './support/pglite-pool';
import { createTestApp, type TestApp } from './support/test-app';

export type Driver = 'pglite' | 'postgres';

/** The drivers the data layer is tested on: PGlite always, PostgreSQL when TEST_DATABASE_URL is set (CI sets it). */
export const drivers: Driver[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

/**
 * A fresh, migrated database. PGlite: in memory, from the run's template or one a closed test left (reset to the
 * template's state: support/pglite-pool.ts). PostgreSQL: a new database created on the
 * TEST_DATABASE_URL server and dropped on close, so test files never see each other's rows.
 */
export async function openTestDatabase(driver: Driver = 'pglite'): Promise<Database> {
  if (driver === 'pglite') return pooledPglite(inject('pgliteTemplate'));
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_DATABASE_URL is not set');
  const name = `docflow_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString() });
  await migrate(database);
  const close = database.close;
  database.close = async () => {
    await close();
    const a = new pg.Client({ connectionString: adminUrl });
    await a.connect();
    await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await a.end();
  };
  return database;
}

export type { TestApp } from './support/test-app';

/** The whole app on a fresh database and DATA_DIR, answering through `app.inject`. */
export function buildTestApp(
  opts: { env?: Record<string, string>; driver?: Driver; mailer?: Mailer; logStream?: NodeJS.WritableStream } = {},
): Promise<TestApp> {
  return createTestApp({
    env: {
      // Test files sign many users up from 127.0.0.1; the per-IP quotas have their own tests.
      REGISTER_MAX_PER_IP_HOUR: '1000',
      MAIL_REQUESTS_MAX_PER_IP_HOUR: '1000',
      ...opts.env,
    },
    database: () => openTestDatabase(opts.driver),
    mailer: opts.mailer,
    logStream: opts.logStream,
  });
}

/** Mails written to DATA_DIR/mail by the outbox mailer, oldest first. */
export function outboxMails(dataDir: string): string[] {
  const dir = path.join(dataDir, 'mail');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .map((f) => readFileSync(path.join(dir, f), 'utf8'));
}

/** The first link to PUBLIC_URL in a raw mail (quoted-printable decoded). */
export function linkIn(mail: string, pathPrefix: string): string {
  // Quoted-printable: undo soft line breaks, then every =XX escape in one pass.
  const text = mail
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  const m = new RegExp(`https?://[^\\s"'<>]*${pathPrefix.replace(/[/?]/g, (c) => `\\${c}`)}[^\\s"'<>]*`).exec(text);
  if (!m) throw new Error(`no ${pathPrefix} link in mail:\n${text}`);
  return m[0];
}
