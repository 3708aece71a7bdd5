// `npm test`: `npm run check` first (formatting, lint with the layer rules, types; a failure stops here), then set up
// what is missing, run every test (API, engines, web components, end-to-end in Chromium) and close with one
// 'N passed, N failed' line.
import { spawn, spawnSync } from 'node:child_process';
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
const vitest = path.join(root, 'node_modules', '.bin', 'vitest');
const userArgs = process.argv.slice(2);

/**
 * The runs: with no arguments, two Vitest runs one after the other: the API, dashboard-component and client tests
 * (two files at a time), then the end-to-end files (two at a time, each a server and a browser). Run beside each
 * other they saved under a tenth of the time on two cores and made timing-sensitive tests of both fail. With
 * arguments (`npm test -- <filters>`), one run as given.
 */
const runs = userArgs.length
  ? [{ name: '', args: userArgs }]
  : [
      { name: '', args: ['--project', 'api', '--project', 'web', '--project', 'client'] },
      { name: 'e2e', args: ['--project', 'e2e'] },
    ];

/** One Vitest run; its JSON report holds its counts. */
function runVitest({ name, args }) {
  const results = path.join(root, `.vitest-results${name ? `-${name}` : ''}.json`);
  rmSync(results, { force: true });
  const child = spawn(
    vitest,
    ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${results}`, ...args],
    { cwd: root, stdio: ['ignore', 'inherit', 'inherit'], env: { NODE_ENV: 'test', ...process.env } },
  );
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, results })));
}

const outcomes = [];
for (const run of runs) outcomes.push(await runVitest(run));
let passed = 0;
let failed = 0;
let skipped = 0;
for (const { results } of outcomes) {
  if (!existsSync(results)) continue;
  const json = JSON.parse(readFileSync(results, 'utf8'));
  passed += json.numPassedTests ?? 0;
  // A file that fails to load has no failed test of its own: count it so the line never reads all green.
  failed += json.numFailedTests || json.numFailedTestSuites || 0;
  skipped += (json.numPendingTests ?? 0) + (json.numTodoTests ?? 0);
}
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(outcomes.every((o) => o.code === 0) && failed === 0 && passed > 0 ? 0 : 1);
