import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/data/db';
import { migrate, migrationsDir } from '../../src/data/migrate';
import { ensurePgliteTemplate, pgliteTemplateDir } from '../../src/data/pglite-template';

const dataDir = path.join(mkdtempSync(path.join(os.tmpdir(), 'docflow-template-test-')), 'data');
afterAll(() => rmSync(path.dirname(dataDir), { recursive: true, force: true }));

describe('the embedded database template (what a fresh DATA_DIR starts from)', () => {
  it('is named by PGlite and the migrations, holds every migration, and a fresh data dir opened on it has nothing to apply', async () => {
    const dir = await ensurePgliteTemplate();
    expect(dir).toBe(pgliteTemplateDir());
    expect(path.basename(dir)).toMatch(/^pglite-\d+\.\d+\.\d+-[0-9a-f]{12}$/);
    expect(existsSync(path.join(dir, 'PG_VERSION'))).toBe(true);
    // Made once: a second call finds it.
    expect(await ensurePgliteTemplate()).toBe(dir);

    const database = await openDatabase({ dataDir });
    try {
      expect(existsSync(path.join(dataDir, 'pglite', 'PG_VERSION'))).toBe(true);
      const migrations = readdirSync(migrationsDir).filter((f) => f.endsWith('.sql'));
      const rows = await database.sql.query<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
      expect(rows.map((r) => r.name)).toEqual(migrations.sort());
      expect(await migrate(database)).toEqual([]);
    } finally {
      await database.close();
    }
  });
});
