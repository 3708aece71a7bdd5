import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';

/**
 * An empty embedded cluster, made once per installed tree and loaded into each new data dir: initdb in WebAssembly
 * takes ~1.7 s and leaves ~300 MB more resident in the process that ran it, so the server's first start on a fresh
 * DATA_DIR would be slower and heavier than every later one. `npm start` makes the file before starting the server
 * (`node --import tsx apps/api/src/data/pglite-template.ts`); without it the server runs initdb as before.
 */

const require = createRequire(import.meta.url);
const cacheDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../.cache');

/**
 * The settings every embedded cluster starts with. Postgres's default 128 MB of shared buffers lives in the server's
 * own memory here (WebAssembly), touched as the cache fills: 16 MB holds the hot tables of a DocFlow node (keys are
 * cached above it) for ~150 MB less RSS.
 */
export const PGLITE_CONF = ['shared_buffers=16MB'];

/** Named by the PGlite version: a cluster made by another version is not loaded. */
export function pgliteTemplateFile(): string {
  const pkg = path.join(path.dirname(require.resolve('@electric-sql/pglite')), '..', 'package.json');
  const { version } = JSON.parse(readFileSync(pkg, 'utf8')) as { version: string };
  return path.join(cacheDir, `pglite-${version}.tar`);
}

/** The template for a data dir that holds no cluster yet, when one was made for this PGlite. */
export function templateFor(dataDir: string): Blob | undefined {
  if (existsSync(dataDir) && readdirSync(dataDir).length > 0) return undefined;
  const file = pgliteTemplateFile();
  return existsSync(file) ? new Blob([readFileSync(file)]) : undefined;
}

/** Make the template unless it exists; written beside and renamed, so a concurrent start never reads half of it. */
export async function ensurePgliteTemplate(): Promise<string> {
  const file = pgliteTemplateFile();
  if (existsSync(file)) return file;
  const db = await PGlite.create({ postgresqlconf: PGLITE_CONF });
  const dump = await db.dumpDataDir('none');
  await db.close();
  mkdirSync(cacheDir, { recursive: true });
  const partial = `${file}.${process.pid}.partial`;
  writeFileSync(partial, Buffer.from(await dump.arrayBuffer()));
  renameSync(partial, file);
  return file;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await ensurePgliteTemplate();
}
