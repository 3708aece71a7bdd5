// `npm run check`: formatting, lint (layer rules included), types of every workspace and of these scripts, and the
// OpenAPI lint (scripts/lint-openapi.mjs). Every step runs even when an earlier one fails, so one run lists everything
// to fix; the exit code is non-zero when any step failed. Installs the npm packages first when they are missing, as
// `npm test` does.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { ensureNodeModules, root } from './bootstrap.mjs';
import { ensureNodeRuntime } from './node-runtime.mjs';

await ensureNodeRuntime({ quiet: true });
ensureNodeModules();

/** @type {[string, string[]][]} */
const steps = [
  ['prettier', ['--check', '.', '--log-level=warn']],
  ['eslint', ['.', '--max-warnings=0']],
  ...['apps/api', 'packages/contracts', 'packages/client', 'apps/web', 'scripts'].map(
    (p) => /** @type {[string, string[]]} */ (['tsc', ['-p', p]]),
  ),
  // The client as published (NodeNext, no Node types): relative imports name their .js files, as plain Node needs.
  ['tsc', ['-p', 'packages/client/tsconfig.build.json', '--noEmit']],
  ['node', ['scripts/lint-openapi.mjs']],
];

const failed = [];
for (const [tool, args] of steps) {
  const label = `${tool} ${args.join(' ')}`;
  const t0 = Date.now();
  const bin = tool === 'node' ? process.execPath : path.join(root, 'node_modules', '.bin', tool);
  const r = spawnSync(bin, args, { cwd: root, stdio: 'inherit' });
  const ok = r.status === 0;
  if (!ok) failed.push(label);
  console.log(`[check] ${ok ? 'ok    ' : 'FAILED'} ${label} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
}
console.log(
  failed.length
    ? `[check] ${failed.length} of ${steps.length} steps failed: ${failed.join('; ')}`
    : `[check] all ${steps.length} steps clean`,
);
process.exit(failed.length ? 1 : 0);
