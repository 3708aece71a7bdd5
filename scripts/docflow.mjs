// `npm run docflow -- <command>`: the administration CLI (apps/api/src/cli.ts) on the product's Node runtime.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { ensureNodeModules, root } from './bootstrap.mjs';
import { ensureNodeRuntime } from './node-runtime.mjs';

await ensureNodeRuntime({ quiet: true });
// A bare clone has no npm packages yet: the CLI may be the first command a user runs (create the first owner).
ensureNodeModules();
const child = spawn(
  process.execPath,
  ['--import', 'tsx', path.join(root, 'apps/api/src/cli.ts'), ...process.argv.slice(2)],
  {
    cwd: root,
    stdio: 'inherit',
  },
);
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
