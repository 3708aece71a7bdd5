import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Database } from './db';

export const migrationsDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../migrations');

const MIGRATION_LOCK = 727_001;

/**
 * Apply the checked-in SQL migrations (migrations/NNNN_name.sql) not yet applied, in name order, each in its own
 * transaction. Several API nodes starting at once on PostgreSQL take turns through an advisory lock.
 */
export async function migrate(database: Database, dir = migrationsDir): Promise<string[]> {
  return database.withLock(MIGRATION_LOCK, async () => {
    await database.sql.exec(
      'CREATE TABLE IF NOT EXISTS schema_migrations (name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
    );
    const done = new Set(
      (await database.sql.query<{ name: string }>('SELECT name FROM schema_migrations')).map((r) => r.name),
    );
    const files = readdirSync(dir)
      .filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f))
      .sort();
    const applied: string[] = [];
    for (const file of files) {
      if (done.has(file)) continue;
      const body = readFileSync(path.join(dir, file), 'utf8');
      const name = file.replace(/'/g, "''");
      await database.sql.exec(`BEGIN;\n${body}\n;INSERT INTO schema_migrations(name) VALUES ('${name}');\nCOMMIT;`);
      applied.push(file);
    }
    return applied;
  });
}
