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
  // The footprint bench first: its start times are the most sensitive to what an earlier bench leaves behind (in one
  // full run, a 1st start of 3.4 s right after the fleet bench; 1.3 s run alone, and 1.1-1.3 s in other full runs).
  .sort((a, b) => Number(b.startsWith('footprint')) - Number(a.startsWith('footprint')) || a.localeCompare(b));
let failed = 0;
for (const file of benches) {
  console.log(`\n=== ${file} ===`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(dir, file)], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
