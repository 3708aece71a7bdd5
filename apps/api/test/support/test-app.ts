import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app';
import { loadConfig, type Config } from '../../src/config/env';
import { openDatabase, type Database } from '../../src/data/db';
import { migrate } from '../../src/data/migrate';
import { ensureOwner } from '../../src/services/accounts/seed-owner';
import type { Mailer } from '../../src/services/mailer';

/**
 * The one builder of a DocFlow app for tests, on a fresh DATA_DIR: the API tests answer through `app.inject`
 * (test/helper.ts), the web end-to-end tests listen on a free port. Other workspaces import it as
 * `@docflow/api/testing`.
 */

export interface TestAppOptions {
  /** Settings over the test defaults, named as the environment variables are. */
  env?: Record<string, string>;
  /**
   * A database to share (left open on close), or how to open one (closed with the app). Default: PGlite in
   * DATA_DIR, migrated, as `npm start` runs.
   */
  database?: Database | ((config: Config) => Promise<Database>);
  mailer?: Mailer;
  /** Test-only routes under /api/v1, registered before the app is ready (e.g. one behind a processing guard). */
  routes?: (app: FastifyInstance) => void | Promise<void>;
  /** An owner account created at start (ADMIN_EMAIL / ADMIN_PASSWORD), as `npm start` does. */
  owner?: { email: string; password: string; name?: string };
  /** Where the server's log goes (at info level); default: no log. */
  logStream?: NodeJS.WritableStream;
  /** Listen on a free port of 127.0.0.1; PUBLIC_URL (the links in mails) becomes that address. */
  listen?: boolean;
}

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  database: Database;
  dataDir: string;
  /** The listening address, with `listen`. */
  url?: string;
  close(): Promise<void>;
}

export async function createTestApp(opts: TestAppOptions = {}): Promise<TestApp> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'docflow-test-'));
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    ...(opts.listen ? { PORT: '0', HOST: '127.0.0.1' } : { PUBLIC_URL: 'http://localhost:3000' }),
    WEB_DIST: path.join(dataDir, 'no-web'),
    ...opts.env,
  });
  const shared = typeof opts.database === 'object' ? opts.database : undefined;
  const open = typeof opts.database === 'function' ? opts.database : openMigrated;
  const database = shared ?? (await open(config));
  const app = await buildApp({
    config,
    database,
    mailer: opts.mailer,
    logger: opts.logStream ? { stream: opts.logStream, level: 'info' } : false,
  });
  const routes = opts.routes;
  if (routes) await app.register(async (scope) => routes(scope), { prefix: '/api/v1' });
  if (opts.owner) await ensureOwner(app.db, { ...opts.owner, name: opts.owner.name ?? 'Owner' });
  let url: string | undefined;
  if (opts.listen) {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('the server has no TCP address');
    url = `http://127.0.0.1:${address.port}`;
    // Known only now: the links in the mails point at the listening address.
    config.PUBLIC_URL = url;
    config.publicUrl = url;
  } else {
    await app.ready();
  }
  return {
    app,
    config,
    database,
    dataDir,
    url,
    async close() {
      await app.close();
      if (!shared) await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function openMigrated(config: Config): Promise<Database> {
  const database = await openDatabase({ dataDir: config.dataDir });
  await migrate(database);
  return database;
}
