import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePglite, type PgliteDatabase } from 'drizzle-orm/pglite';
import { PGLITE_CONF, seedFromTemplate } from './pglite-template';
import { lockDownTree } from '../lib/private-files';
import * as schema from './schema/index';

export { schema };

/**
 * The query builder. PGlite's and node-postgres's Drizzle databases share the same query API; we type both as the
 * PGlite one so repositories are written once.
 */
export type Db = PgliteDatabase<typeof schema>;

/** Plain SQL access for the migrator and health checks, whichever driver is underneath. */
export interface SqlClient {
  exec(sql: string): Promise<void>;
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
}

export interface Database {
  db: Db;
  driver: 'pglite' | 'postgres';
  sql: SqlClient;
  /** Run `fn` while holding a cluster-wide lock (advisory lock on PostgreSQL; PGlite has one process). */
  withLock<T>(key: number, fn: () => Promise<T>): Promise<T>;
  ping(): Promise<void>;
  /** Tells every node listening on `channel` (PostgreSQL's NOTIFY: the other nodes of a fleet hear it too). */
  notify(channel: string, payload: string): Promise<void>;
  /** Hears `channel` (a constant name, lower case) until the returned function is called. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  close(): Promise<void>;
  /** PGlite only: the data directory as a tarball. */
  dump?(): Promise<Blob>;
}

export interface OpenDatabaseOptions {
  /** postgres:// URL; when absent the embedded PGlite is used. */
  databaseUrl?: string;
  /** Where PGlite keeps its files; `memory://` (or undefined) keeps everything in memory. */
  dataDir?: string;
  /** Start an in-memory PGlite from a dump (tests: a migrated template loads in a fraction of an initdb). */
  pgliteTemplate?: Blob;
}

export async function openDatabase(opts: OpenDatabaseOptions): Promise<Database> {
  if (opts.databaseUrl) return openPostgres(opts.databaseUrl);
  return openPglite(opts.dataDir ? path.join(opts.dataDir, 'pglite') : 'memory://', opts.pgliteTemplate);
}

async function openPglite(where: string, template?: Blob): Promise<Database> {
  if (where !== 'memory://' && !template) seedFromTemplate(where);
  const client = await PGlite.create({
    postgresqlconf: PGLITE_CONF,
    ...(where === 'memory://' ? {} : { dataDir: where }),
    ...(template ? { loadDataDir: template } : {}),
  });
  // PGlite writes some files (its initdb's, the relation cache's) readable by all: closed again once it is up.
  if (where !== 'memory://') lockDownTree(where);
  const db = drizzlePglite(client, { schema });
  const sql: SqlClient = {
    exec: async (text) => {
      await client.exec(text);
    },
    query: async <T>(text: string, params?: unknown[]) => (await client.query<T>(text, params)).rows,
  };
  return {
    db,
    driver: 'pglite',
    sql,
    withLock: (_key, fn) => fn(),
    ping: async () => {
      await client.query('select 1');
    },
    notify: async (channel, payload) => {
      await client.query('select pg_notify($1, $2)', [channel, payload]);
    },
    listen: async (channel, onPayload) => client.listen(channelName(channel), onPayload),
    close: () => client.close(),
    dump: () => client.dumpDataDir('none') as Promise<Blob>,
  };
}

async function openPostgres(url: string): Promise<Database> {
  // Loaded here: a server on the embedded database never needs the PostgreSQL driver (its modules cost start time).
  const [{ default: pg }, { drizzle: drizzlePg }] = await Promise.all([
    import('pg'),
    import('drizzle-orm/node-postgres'),
  ]);
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle client that dies (server restart) must not crash the process: the pool replaces it.
  pool.on('error', () => undefined);
  const db = drizzlePg(pool, { schema }) as unknown as Db;
  const listener = new PgListener(() => pool.connect());
  const sql: SqlClient = {
    exec: async (text) => {
      await pool.query(text);
    },
    query: async <T>(text: string, params?: unknown[]) => (await pool.query(text, params as unknown[])).rows as T[],
  };
  return {
    db,
    driver: 'postgres',
    sql,
    withLock: async (key, fn) => {
      const client = await pool.connect();
      try {
        await client.query('select pg_advisory_lock($1)', [key]);
        return await fn();
      } finally {
        await client.query('select pg_advisory_unlock($1)', [key]).catch(() => undefined);
        client.release();
      }
    },
    ping: async () => {
      await pool.query('select 1');
    },
    notify: async (channel, payload) => {
      await pool.query('select pg_notify($1, $2)', [channel, payload]);
    },
    listen: (channel, onPayload) => listener.listen(channel, onPayload),
    close: async () => {
      await listener.close();
      await pool.end();
    },
  };
}

/** A LISTEN channel name: ours are constants, checked so that one can never be read as SQL. */
function channelName(channel: string): string {
  if (!/^[a-z][a-z0-9_]*$/.test(channel)) throw new Error(`invalid notification channel: ${channel}`);
  return channel;
}

interface PgClient {
  query(text: string): Promise<unknown>;
  on(event: 'notification', fn: (m: { channel: string; payload?: string }) => void): unknown;
  on(event: 'error', fn: (err: Error) => void): unknown;
  release(err?: boolean): void;
}

/**
 * PostgreSQL notifications for this node, on one connection of the pool kept for them: a lost connection is
 * replaced and its channels listened to again (what was sent meanwhile is lost, so listeners keep a slow fallback).
 */
class PgListener {
  private client: Promise<PgClient> | null = null;
  private readonly handlers = new Map<string, Set<(payload: string) => void>>();
  private closed = false;

  constructor(private readonly connect: () => Promise<PgClient>) {}

  private connection(): Promise<PgClient> {
    this.client ??= this.connect().then((c) => {
      c.on('notification', (m) => {
        for (const fn of this.handlers.get(m.channel) ?? []) fn(m.payload ?? '');
      });
      c.on('error', () => {
        c.release(true);
        this.client = null;
        if (!this.closed) setTimeout(() => void this.relisten().catch(() => undefined), 1000).unref();
      });
      return c;
    });
    return this.client;
  }

  private async relisten(): Promise<void> {
    const c = await this.connection();
    for (const channel of this.handlers.keys()) await c.query(`LISTEN ${channel}`);
  }

  async listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>> {
    const name = channelName(channel);
    let set = this.handlers.get(name);
    if (!set) {
      set = new Set();
      this.handlers.set(name, set);
      await (await this.connection()).query(`LISTEN ${name}`);
    }
    set.add(onPayload);
    return async () => {
      set.delete(onPayload);
      if (set.size || this.handlers.get(name) !== set) return;
      this.handlers.delete(name);
      if (this.client) await (await this.client).query(`UNLISTEN ${name}`).catch(() => undefined);
    };
  }

  async close(): Promise<void> {
    this.closed = true;
    const c = this.client;
    this.client = null;
    if (c) (await c.catch(() => null))?.release();
  }
}
