// `npm start`: set up what is missing, then start the whole product (API + dashboard + embedded database).
import { spawn } from 'node:child_process';
import path from 'node:path';
import { bootstrap, root } from './bootstrap.mjs';
import { ensureNodeRuntime } from './node-runtime.mjs';

await ensureNodeRuntime();
bootstrap();
const child = spawn(
  process.execPath,
  [
    // V8 grows the young generation to 64 MB semi-spaces on a large machine, all of it resident once used; a server
    // whose uploads live outside the heap loses nothing measurable with 8 MB (npm run bench -- footprint, overhead).
    '--max-semi-space-size=8',
    '--import',
    'tsx',
    path.join(root, 'apps/api/src/server.ts'),
    ...process.argv.slice(2),
  ],
  {
    cwd: root,
    stdio: 'inherit',
    env: { NODE_ENV: 'production', ...process.env },
  },
);
for (const sig of /** @type {const} */ (['SIGINT', 'SIGTERM'])) process.on(sig, () => child.kill(sig));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
