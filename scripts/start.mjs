// `npm start` (through scripts/start.sh): set up what is missing, then start the whole product (API + dashboard +
// embedded database). With --plan=FILE it only sets up, and writes the server's command line for start.sh to exec.
// `npm run worker` (scripts/worker.mjs) starts the same server as a worker: it runs jobs and takes no HTTP.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { apiServerEntry, bootstrap, root } from './bootstrap.mjs';
import { serverEnv, serverNodeOptions } from './server-node-options.mjs';
import { ensureNodeRuntime } from './node-runtime.mjs';

await ensureNodeRuntime();
bootstrap();
// The embedded database's template cluster (migrated), made once per installed tree so that a fresh DATA_DIR starts
// from a copy instead of running initdb and the migrations in the server (apps/api/src/data/pglite-template.ts).
if (!process.env.DATABASE_URL) {
  const { ensurePgliteTemplate } = await import(
    pathToFileURL(path.join(path.dirname(apiServerEntry), 'pglite-template.js')).href
  );
  await ensurePgliteTemplate();
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
