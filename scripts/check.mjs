// `npm run check`: formatting, lint (layer rules included), types of every workspace and of these scripts, and the
// OpenAPI lint (scripts/lint-openapi.mjs). Every step runs even when an earlier one fails, so one run lists everything
// to fix; the exit code is non-zero when any step failed. Installs the npm packages first when they are missing, as
// `npm test` does. Steps run two at a time (more on a bigger machine), the slowest first; each one's output is printed
// whole when it ends.
import { spawn } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { ensureNodeModules, root } from './bootstrap.mjs';
import { ensureNodeRuntime } from './node-runtime.mjs';

await ensureNodeRuntime({ quiet: true });
ensureNodeModules();

/** @type {[string, string[]][]} */
const steps = [
  ['tsc', ['-p', 'apps/web']],
  ['eslint', ['.', '--max-warnings=0']],
  ['prettier', ['--check', '.', '--log-level=warn']],
  ...['apps/api', 'packages/client', 'packages/contracts', 'scripts'].map(
    (p) => /** @type {[string, string[]]} */ (['tsc', ['-p', p]]),
  ),
  // The client as published (NodeNext, no Node types): relative imports name their .js files, as plain Node needs.
  ['tsc', ['-p', 'packages/client/tsconfig.build.json', '--noEmit']],
  ['node', ['scripts/lint-openapi.mjs']],
];

/** One step, its output held and printed whole when it ends (two steps run at once, on a 2-core machine). */
function runStep([tool, args]) {
  const label = `${tool} ${args.join(' ')}`;
  const t0 = Date.now();
  const bin = tool === 'node' ? process.execPath : path.join(root, 'node_modules', '.bin', tool);
  return new Promise((resolve) => {
    const child = spawn(bin, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    child.stdout.on('data', (d) => out.push(d));
    child.stderr.on('data', (d) => out.push(d));
    child.on('error', (err) => out.push(Buffer.from(`${err.message}\n`)));
    child.on('close', (code) => {
      process.stdout.write(Buffer.concat(out));
      const ok = code === 0;
      console.log(`[check] ${ok ? 'ok    ' : 'FAILED'} ${label} (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
      resolve(ok ? null : label);
    });
  });
}

const queue = [...steps];
const failed = [];
const lanes = Math.max(2, Math.min(4, os.availableParallelism()));
await Promise.all(
  Array.from({ length: lanes }, async () => {
    for (let step = queue.shift(); step; step = queue.shift()) {
      const failure = await runStep(step);
      if (failure) failed.push(failure);
    }
  }),
);
console.log(
  failed.length
    ? `[check] ${failed.length} of ${steps.length} steps failed: ${failed.join('; ')}`
    : `[check] all ${steps.length} steps clean`,
);
process.exit(failed.length ? 1 : 0);
