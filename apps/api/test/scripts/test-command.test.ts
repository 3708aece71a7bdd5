import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../../../..');
let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

/**
 * scripts/test.mjs in a folder of its own, beside stand-ins for what it starts: the set-up (nothing to do), the check
 * (exits with `checkExit`) and vitest (records that it ran and passes one test). Each stand-in writes its name to a
 * log, so the order is what the log says.
 */
function runTestCommand(checkExit: number): { status: number | null; stdout: string; log: string[] } {
  dir = mkdtempSync(path.join(os.tmpdir(), 'docflow-test-command-'));
  const scripts = path.join(dir, 'scripts');
  const bin = path.join(dir, 'node_modules', '.bin');
  mkdirSync(scripts, { recursive: true });
  mkdirSync(bin, { recursive: true });
  const log = path.join(dir, 'log');
  copyFileSync(path.join(root, 'scripts', 'test.mjs'), path.join(scripts, 'test.mjs'));
  writeFileSync(
    path.join(scripts, 'bootstrap.mjs'),
    `import { appendFileSync } from 'node:fs';\nimport path from 'node:path';\n` +
      `export const root = path.resolve(import.meta.dirname, '..');\n` +
      `export function bootstrap() { appendFileSync(${JSON.stringify(log)}, 'bootstrap\\n'); }\n`,
  );
  writeFileSync(path.join(scripts, 'node-runtime.mjs'), 'export async function ensureNodeRuntime() {}\n');
  writeFileSync(
    path.join(scripts, 'check.mjs'),
    `import { appendFileSync } from 'node:fs';\nappendFileSync(${JSON.stringify(log)}, 'check\\n');\n` +
      `console.log('[check] stand-in');\nprocess.exit(${checkExit});\n`,
  );
  // vitest's JSON report is what the closing line counts.
  const vitest = path.join(bin, 'vitest');
  writeFileSync(
    vitest,
    `#!/bin/sh\nprojects=''; next=''\n` +
      `for a in "$@"; do\n` +
      `  if [ "$next" = 1 ]; then projects="$projects $a"; next=''; fi\n` +
      `  case "$a" in --project) next=1;; --outputFile.json=*) echo '{"numPassedTests":1}' > "\${a#--outputFile.json=}";; esac\n` +
      `done\necho "vitest$projects" >> ${JSON.stringify(log)}\n`,
  );
  chmodSync(vitest, 0o755);
  const r = spawnSync(process.execPath, [path.join(scripts, 'test.mjs')], { cwd: dir, encoding: 'utf8' });
  return {
    status: r.status,
    stdout: r.stdout,
    log: existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : [],
  };
}

describe('npm test (scripts/test.mjs)', () => {
  it('runs npm run check first, then the set-up and the tests: the browser tests in a run after the rest', () => {
    const r = runTestCommand(0);
    // Every other project, then the e2e project; their counts are summed.
    expect(r.log).toEqual(['check', 'bootstrap', 'vitest api web client', 'vitest e2e']);
    expect(r.stdout).toContain('[check] stand-in');
    expect(r.stdout).toMatch(/^2 passed, 0 failed$/m);
    expect(r.status).toBe(0);
  });

  it('stops when npm run check fails: no set-up, no tests, its exit code', () => {
    const r = runTestCommand(3);
    expect(r.log).toEqual(['check']);
    expect(r.stdout).toContain('`npm run check` failed');
    expect(r.stdout).not.toMatch(/passed, \d+ failed/);
    expect(r.status).toBe(3);
  });
});
