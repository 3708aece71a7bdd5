// `npm start` (through scripts/start.sh): set up what is missing, then start the whole product (API + dashboard +
// embedded database). With --plan=FILE it only sets up, and writes the server's command line for start.sh to exec.
// `npm run worker` (scripts/worker.mjs) starts the same server as a worker: it runs jobs and takes no HTTP.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { apiServerEntry, bootstrap, root } from './bootstrap.mjs';
import { serverEnv, serverNodeOptions } from './server-node-options.mjs';
import { ensureNodeRuntime } from './node-runtime.mjs';

await ensureNodeRuntime();
bootstrap();
// The embedded database's empty cluster, made once per installed tree so that a fresh DATA_DIR loads it instead of
// running initdb in the server (apps/api/src/data/pglite-template.ts, which names it by PGlite's version).
if (!process.env.DATABASE_URL) {
  const pglite = path.join(root, 'node_modules', '@electric-sql', 'pglite', 'package.json');
  const { version } = JSON.parse(readFileSync(pglite, 'utf8'));
  if (!existsSync(path.join(root, 'apps', 'api', '.cache', `pglite-${version}`)))
    spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'apps/api/src/data/pglite-template.ts')], {
      cwd: root,
      stdio: 'inherit',
    });
}
const env = { NODE_ENV: 'production', ...serverEnv };
const plan = process.argv.find((a) => a.startsWith('--plan='))?.slice('--plan='.length);
if (plan) {
  // scripts/start.sh runs the server in its own place (exec): written as shell words, its environment first.
  const q = (v) => `'${String(v).replaceAll("'", `'\\''`)}'`;
  // PATH as this process has it: with the pinned runtime first when ensureNodeRuntime ran this script again.
  const vars = Object.entries({ ...env, PATH: '' }).map(([k, v]) => `${k}=${q(process.env[k] ?? v)}`);
  writeFileSync(plan, ['env', ...vars, ...[process.execPath, ...serverNodeOptions, apiServerEntry].map(q)].join(' '));
} else {
  const child = spawn(process.execPath, [...serverNodeOptions, apiServerEntry, ...process.argv.slice(2)], {
    cwd: root,
    stdio: 'inherit',
    env: { ...env, ...process.env },
  });
  for (const sig of /** @type {const} */ (['SIGINT', 'SIGTERM'])) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
