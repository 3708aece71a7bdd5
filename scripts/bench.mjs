// `npm run bench`: every benchmark under scripts/bench/, each printing ratios against the native tools measured
// in the same run (these machines are shared and noisy, so absolute times alone mean little).
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { bootstrap, root } from './bootstrap.mjs';
import { ensureNodeRuntime } from './node-runtime.mjs';

await ensureNodeRuntime();
bootstrap({ web: false });
const dir = path.join(root, 'scripts', 'bench');
const only = process.argv.slice(2);
const benches = readdirSync(dir)
  .filter((f) => /\.(mjs|ts)$/.test(f))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
let failed = 0;
for (const file of benches) {
  console.log(`\n=== ${file} ===`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(dir, file)], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
