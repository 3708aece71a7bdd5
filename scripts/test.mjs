// `npm test`: `npm run check` first (formatting, lint with the layer rules, types; a failure stops here), then set up
// what is missing, run every test (API, engines, web components, end-to-end in Chromium) and close with one
// 'N passed, N failed' line.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { bootstrap, root } from './bootstrap.mjs';
import { ensureNodeRuntime } from './node-runtime.mjs';

await ensureNodeRuntime();
const check = spawnSync(process.execPath, [path.join(root, 'scripts', 'check.mjs')], { cwd: root, stdio: 'inherit' });
if (check.status !== 0) {
  console.log('\nnpm test: stopped, `npm run check` failed (see the steps above)');
  process.exit(check.status || 1);
}
bootstrap();
const results = path.join(root, '.vitest-results.json');
rmSync(results, { force: true });
const args = [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${results}`,
  ...process.argv.slice(2),
];
const r = spawnSync(path.join(root, 'node_modules', '.bin', 'vitest'), args.slice(1), {
  cwd: root,
  stdio: 'inherit',
  env: { NODE_ENV: 'test', ...process.env },
});
let passed = 0;
let failed = 0;
let skipped = 0;
if (existsSync(results)) {
  const json = JSON.parse(readFileSync(results, 'utf8'));
  passed = json.numPassedTests ?? 0;
  // A file that fails to load has no failed test of its own: count it so the line never reads all green.
  failed = json.numFailedTests || json.numFailedTestSuites || 0;
  skipped = (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0);
}
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(r.status === 0 && failed === 0 && passed > 0 ? 0 : 1);
