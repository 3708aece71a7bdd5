import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error';
import { loadConfig } from '../../src/config/env';

const dataDir = mkdtempSync(path.join(os.tmpdir(), 'docflow-config-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const base = { DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(40) };

describe('loadConfig', () => {
  it('reads the engine settings with the rest: chains, limits and module settings in one object', () => {
    const c = loadConfig({
      ...base,
      PDF_MERGE_ENGINES: 'qpdf',
      PROCESSING_TIMEOUT_MS: '5000',
      QPDF_BIN: '/opt/qpdf',
      DOCFLOW_TMP_DIR: dataDir,
    });
    expect(c.engines.chains.merge).toEqual(['qpdf']);
    expect(c.engines.timeoutMs).toBe(5000);
    expect(c.engines.moduleConfig.qpdf).toMatchObject({ BIN: '/opt/qpdf' });
    expect(c.tmpDir).toBe(path.resolve(dataDir));
  });

  it('uses the system temp dir when DOCFLOW_TMP_DIR is unset or empty', () => {
    expect(loadConfig(base).tmpDir).toBe(path.resolve(os.tmpdir()));
    expect(loadConfig({ ...base, DOCFLOW_TMP_DIR: '' }).tmpDir).toBe(path.resolve(os.tmpdir()));
  });

  it('names every bad variable at once, of the server and of the engines', () => {
    let err: unknown;
    try {
      loadConfig({ ...base, PORT: 'eighty', PDF_MERGE_ENGINES: 'nope', PROCESSING_QUEUE_SIZE: '-1' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const issues = (err as ConfigError).issues.join('\n');
    expect(issues).toContain('PORT');
    expect(issues).toContain('PDF_MERGE_ENGINES: unknown engine "nope"');
    expect(issues).toContain('PROCESSING_QUEUE_SIZE');
  });
});
