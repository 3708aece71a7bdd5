// `npm run fleet`: the compose file's fleet as plain processes on one machine (no Docker): API nodes
// (PROCESSING_MODE=api) on consecutive ports from PORT and workers (PROCESSING_MODE=worker), all on DATABASE_URL
// and one DATA_DIR, where they share the job files unless STORAGE_URL (passed on with the rest of the environment)
// names a bucket. `npm run fleet -- --api 2 --workers 2 --port 3000 [--no-setup]`.
// Each line of output is prefixed with its process; SIGINT/SIGTERM go to every process; a process that dies is
// reported and the others keep serving (the fleet survives the loss of a node).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiServerEntry, bootstrap, ensureApiBuild } from './bootstrap.mjs';
import { serverEnv, serverNodeOptions } from './server-node-options.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const arg = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
};
const apiNodes = Number(arg('api', '2'));
const workers = Number(arg('workers', '2'));
const basePort = Number(arg('port', process.env.PORT ?? '3000'));
if (!process.env.DATABASE_URL) {
  console.error('npm run fleet: set DATABASE_URL (API nodes and workers share one PostgreSQL)');
  process.exit(78);
}
if (!process.argv.includes('--no-setup')) {
  const { ensureNodeRuntime } = await import('./node-runtime.mjs');
  await ensureNodeRuntime();
  bootstrap();
} else ensureApiBuild(); // the processes run the compiled server: even without the set-up, it must be current

const children = [];
function start(name, env) {
  const child = spawn(process.execPath, [...serverNodeOptions, apiServerEntry], {
    cwd: root,
    env: { NODE_ENV: 'production', ...serverEnv, ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  for (const stream of [child.stdout, child.stderr]) {
    let rest = '';
    stream.on('data', (chunk) => {
      const lines = (rest + chunk).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) process.stdout.write(`[${name}] ${line}\n`);
    });
  }
  child.on('exit', (code, signal) => {
    process.stdout.write(`[fleet] ${name} (pid ${child.pid}) exited ${signal ?? code}\n`);
    if (children.every((c) => c.exitCode !== null || c.signalCode !== null)) process.exit(0);
  });
  children.push(child);
  process.stdout.write(`[fleet] ${name} pid ${child.pid}${env.PORT ? ` port ${env.PORT}` : ''}\n`);
}

for (let i = 0; i < apiNodes; i++) start(`api-${i + 1}`, { PROCESSING_MODE: 'api', PORT: String(basePort + i) });
for (let i = 0; i < workers; i++) start(`worker-${i + 1}`, { PROCESSING_MODE: 'worker' });
for (const sig of ['SIGINT', 'SIGTERM'])
  process.on(sig, () => {
    for (const c of children) if (c.exitCode === null) c.kill(sig);
  });
