import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from './config/env';
import { openDatabase } from './data/db';
import { buildApp } from './app';

/**
 * The OpenAPI document the server serves at /api-docs/openapi.json, built without serving it (for the linter and
 * other tools): the whole app on an empty in-memory database and a throw-away DATA_DIR, closed afterwards.
 */
export async function openApiDocument(env: Record<string, string> = {}): Promise<object> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'docflow-openapi-'));
  const database = await openDatabase({});
  try {
    const config = loadConfig({
      DATA_DIR: dataDir,
      LOG_LEVEL: 'silent',
      WEB_DIST: path.join(dataDir, 'no-web'),
      ...env,
    });
    // No job runner on the empty, unmigrated database: the document is all that is wanted.
    const app = await buildApp({ config: { ...config, PROCESSING_MODE: 'api' }, database, logger: false });
    try {
      await app.ready();
      return app.swagger();
    } finally {
      await app.close();
    }
  } finally {
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
