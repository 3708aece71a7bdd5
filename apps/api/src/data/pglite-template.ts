import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './db';
import { migrate, migrationsDir } from './migrate';
import { lockDownTree } from '../lib/private-files';

/**
 * An embedded cluster with every migration applied, made once per installed tree and copied into each new data dir:
 * initdb in WebAssembly takes ~1.7 s and leaves ~300 MB more resident in the process that ran it, and the migrations
 * ~0.7 s more, so the server's first start on a fresh DATA_DIR would be slower and heavier than every later one.
 * `npm start` makes it before starting the server (scripts/start.mjs, through the compiled module), the Dockerfile
 * with `node --import tsx apps/api/src/data/pglite-template.ts`; without it the server runs initdb as before. A
 * template older than the migrations is still right: the server applies the ones it lacks.
 */

const require = createRequire(import.meta.url);
const cacheDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../.cache');

/**
 * The settings every embedded cluster starts with. Postgres's default 128 MB of shared buffers lives in the server's
 * own memory here (WebAssembly), touched as the cache fills: 16 MB holds the hot tables of a DocFlow node (keys are
 * cached above it) for ~150 MB less RSS.
 */
export const PGLITE_CONF = ['shared_buffers=16MB'];

/**
 * Named by the PGlite version (a cluster made by another version is not loaded) and by the migrations it holds (a
 * new migration makes a new template).
 */
export function pgliteTemplateDir(): string {
  const pkg = path.join(path.dirname(require.resolve('@electric-sql/pglite')), '..', 'package.json');
  const { version } = JSON.parse(readFileSync(pkg, 'utf8')) as { version: string };
  const digest = createHash('sha256');
  for (const file of readdirSync(migrationsDir).sort()) {
    digest.update(file).update(readFileSync(path.join(migrationsDir, file)));
  }
  return path.join(cacheDir, `pglite-${version}-${digest.digest('hex').slice(0, 12)}`);
}

/**
 * Copies the template cluster into a data dir that holds none yet, when one was made for this PGlite: the first start
 * then opens it like any restart. Copied as files, not loaded as a tarball through PGlite (loadDataDir): that took
 * ~1.1 s and left the tarball's 40 MB and its copies resident in the server.
 */
export function seedFromTemplate(dataDir: string): void {
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) return;
  const template = pgliteTemplateDir();
  if (!existsSync(path.join(template, 'PG_VERSION'))) return;
  cpSync(template, dataDir, { recursive: true });
  lockDownTree(dataDir); // the copy keeps the template's modes (0666 files as PGlite's initdb left them)
}

/** Make the template unless it exists; made beside and renamed, so a concurrent start never copies half of it. */
export async function ensurePgliteTemplate(): Promise<string> {
  const dir = pgliteTemplateDir();
  if (existsSync(dir)) return dir;
  const partial = `${dir}.${process.pid}.partial`;
  mkdirSync(cacheDir, { recursive: true });
  // Loaded here, not with the module: `npm start` reads the template's name at every start.
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create({ dataDir: partial, postgresqlconf: PGLITE_CONF });
  await migrate({
    withLock: (_key, fn) => fn(),
    sql: {
      exec: async (text) => {
        await db.exec(text);
      },
      query: async <T>(text: string, params?: unknown[]) => (await db.query<T>(text, params)).rows,
    },
  } as Database);
  await db.close();
  lockDownTree(partial);
  try {
    renameSync(partial, dir);
  } catch (err) {
    if (!existsSync(dir)) throw err; // another start made it first
  } finally {
    rmSync(partial, { recursive: true, force: true });
  }
  // Templates of other versions or migrations are never loaded again.
  for (const old of readdirSync(cacheDir)) {
    if (old.startsWith('pglite-') && path.join(cacheDir, old) !== dir && !old.endsWith('.partial'))
      rmSync(path.join(cacheDir, old), { recursive: true, force: true });
  }
  return dir;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await ensurePgliteTemplate();
}
