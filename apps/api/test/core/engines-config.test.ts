import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../src/config/config-error';
import { loadEngineConfig } from '../../src/config/engines';
import { createEngines } from '../../src/core/create-engines';
import { resolveToolPool, resolveToolUser } from '../../src/core/tool-user';

describe('engine configuration', () => {
  it('defaults: the measured chains', () => {
    const c = loadEngineConfig({});
    expect(c.chains.merge).toEqual(['pdf-scan', 'poppler', 'qpdf', 'pdf-lib']);
    expect(c.chains.encrypt).toEqual(['qpdf']);
    expect(c.chains.compress).toEqual(['ghostscript', 'qpdf']);
    expect(c.concurrency).toBeGreaterThanOrEqual(1);
  });

  it('reads ordered lists, tool aliases and "none"', () => {
    const c = loadEngineConfig({
      PDF_MERGE_ENGINES: 'pdfunite,qpdf,pdf-lib',
      PDF_PDFA_ENGINES: 'none',
      PROCESSING_QUEUE_SIZE: '7',
      QPDF_BIN: '/usr/bin/qpdf',
    });
    expect(c.chains.merge).toEqual(['poppler', 'qpdf', 'pdf-lib']);
    expect(c.chains.toPdfa).toEqual([]);
    expect(c.queueSize).toBe(7);
    expect(c.moduleConfig.qpdf).toEqual({ BIN: '/usr/bin/qpdf' });
    expect(createEngines(loadEngineConfig({ PDF_PDFA_ENGINES: 'none' })).has('toPdfa')).toBe(false);
  });

  it('an unknown engine id, or one that cannot do the operation, stops the start naming the variable', () => {
    let err: unknown;
    try {
      loadEngineConfig({
        PDF_MERGE_ENGINES: 'pdfunite,mutool',
        PDF_ENCRYPT_ENGINES: 'poppler',
        PROCESSING_TIMEOUT_MS: 'soon',
      });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const issues = (err as ConfigError).issues.join('\n');
    expect(issues).toMatch(
      /PDF_MERGE_ENGINES: unknown engine "mutool" \(valid for merge: pdf-scan, qpdf, poppler, pdf-lib; or "none"\)/,
    );
    expect(issues).toMatch(/PDF_ENCRYPT_ENGINES: engine "poppler" cannot do protect \(valid: qpdf\)/);
    expect(issues).toMatch(/PROCESSING_TIMEOUT_MS/);
  });

  // Read with the rest of the configuration and passed in (only config/env.ts reads the environment), in process and
  // through the tool host alike.
  it.each(['false', 'true'])(
    "the tools' PATH and font settings come from the configuration (tool host: %s)",
    async (toolHost) => {
      const engines = createEngines(
        loadEngineConfig({
          PROCESSING_TOOL_HOST: toolHost,
          PATH: '/usr/bin:/bin:/docflow-probe/bin',
          FONTCONFIG_FILE: '/docflow-probe/fonts.conf',
        }),
      );
      try {
        const env = (await engines.tools.run('env', [])).stdout.toString();
        expect(env).toMatch(/^PATH=\/usr\/bin:\/bin:\/docflow-probe\/bin$/m);
        expect(env).toMatch(/^FONTCONFIG_FILE=\/docflow-probe\/fonts\.conf$/m);
        expect(env).not.toMatch(/^FONTCONFIG_PATH=/m);
        // A call's own settings still reach that call, beside the configured ones.
        const own = (await engines.tools.run('env', [], { env: { OMP_THREAD_LIMIT: '1' } })).stdout.toString();
        expect(own).toMatch(/^OMP_THREAD_LIMIT=1$/m);
        expect(own).toMatch(/^FONTCONFIG_FILE=\/docflow-probe\/fonts\.conf$/m);
      } finally {
        await engines.close();
      }
    },
  );

  it('health checks every engine in use', async () => {
    const h = await createEngines(loadEngineConfig({})).health();
    for (const id of ['qpdf', 'poppler', 'pdf-lib', 'ghostscript', 'qrcode', 'zbar'])
      expect(h[id], id).toMatchObject({ ok: true });
  });

  it("refuses LibreOffice instances that would hold every tools' account, and counts what the configuration keeps busy", () => {
    expect(process.getuid?.(), 'the pool exists for root: run as root, as CI does').toBe(0);
    const pool = resolveToolPool(resolveToolUser('docflow-tools')).length;
    expect(pool, 'the set-up creates the pool (PROCESSING_TOOL_ACCOUNTS)').toBeGreaterThan(1);
    let err: unknown;
    try {
      loadEngineConfig({ LIBREOFFICE_INSTANCES: String(pool) });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    expect((err as ConfigError).issues).toEqual([
      expect.stringMatching(/^LIBREOFFICE_INSTANCES: .* leaving none for requests/),
    ]);
    // One fewer leaves the requests one: the start goes on (and warns when that is fewer than the slots).
    const engines = createEngines(
      loadEngineConfig({ LIBREOFFICE_INSTANCES: String(pool - 1), PROCESSING_CONCURRENCY: '3' }),
    );
    expect(engines.accountsWanted()).toBe(3 + pool - 1);
    // Without LibreOffice in a chain its instances hold nothing.
    expect(
      createEngines(
        loadEngineConfig({
          LIBREOFFICE_INSTANCES: String(pool),
          CONVERT_OFFICE_ENGINES: 'none',
          PROCESSING_CONCURRENCY: '3',
        }),
      ).accountsWanted(),
    ).toBe(3);
  });
});
