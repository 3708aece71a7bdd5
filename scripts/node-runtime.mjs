// The product runs on a maintained Node.js LTS line. The two commands use the machine's Node when it is one;
// otherwise they install the pinned LTS from the npm registry's platform package (node-<os>-<arch>: the official
// binary shipped inside a registry package, so no download from anywhere else) into .runtime/ and run themselves
// again with it. Plain Node, no dependencies: this runs before `npm install`.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The LTS version the product is tested on (also the Dockerfile's). */
export const pinnedNodeVersion = '24.21.0';

/** End of life of each LTS line (nodejs.org release schedule): a line is supported until that day. */
const ltsEndOfLife = { 22: '2027-04-30', 24: '2028-04-30', 26: '2029-04-30' };

export function isSupportedLts(version, now = new Date()) {
  const major = Number(String(version).replace(/^v/, '').split('.')[0]);
  const eol = ltsEndOfLife[major];
  return eol !== undefined && now < new Date(`${eol}T00:00:00Z`);
}

const log = (msg) => console.log(`[docflow setup] ${msg}`);

/** Path of the pinned Node binary under .runtime/, installing it from the npm registry when missing. */
export function pinnedNodeBinary() {
  const dir = path.join(root, '.runtime', `node-${pinnedNodeVersion}`);
  const bin = path.join(dir, 'bin', 'node');
  if (existsSync(bin)) return bin;
  const pkg = `node-${process.platform}-${process.arch}@${pinnedNodeVersion}`;
  log(`installing Node.js v${pinnedNodeVersion} from the npm registry (${pkg})`);
  const staging = path.join(root, '.runtime', `.staging-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const packed = spawnSync('npm', ['pack', pkg, '--silent', '--pack-destination', staging], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const tarball = packed.stdout?.trim().split('\n').pop();
  if (packed.status !== 0 || !tarball) throw new Error(`npm pack ${pkg} failed`);
  const unpacked = spawnSync('tar', ['-xzf', path.join(staging, tarball), '-C', staging], { stdio: 'inherit' });
  if (unpacked.status !== 0) throw new Error(`could not unpack ${tarball}`);
  // Moved into place whole, so an interrupted install is never taken for a finished one.
  rmSync(dir, { recursive: true, force: true });
  renameSync(path.join(staging, 'package'), dir);
  rmSync(staging, { recursive: true, force: true });
  return bin;
}

/**
 * Returns when this process runs on a supported LTS. Otherwise runs the same script with the pinned Node, forwards
 * signals to it, exits with its code, and never resolves.
 */
export function ensureNodeRuntime({ quiet = false } = {}) {
  if (isSupportedLts(process.versions.node) || process.env.DOCFLOW_NODE_REEXEC === '1') {
    if (!quiet) log(`node --version: ${process.version}`);
    return Promise.resolve();
  }
  const bin = pinnedNodeBinary();
  if (!quiet)
    log(`Node.js ${process.version} is not a supported LTS: using Node.js v${pinnedNodeVersion} from .runtime/`);
  const binDir = path.dirname(bin);
  const child = spawn(bin, process.argv.slice(1), {
    stdio: 'inherit',
    env: {
      ...process.env,
      // Children started as `node`, `npm`, `npx` or by a `#!/usr/bin/env node` line find the same runtime, and
      // native addons built by node-gyp use its headers.
      PATH: `${binDir}${path.delimiter}${process.env.PATH ?? ''}`,
      npm_config_nodedir: path.dirname(binDir),
      DOCFLOW_NODE_REEXEC: '1',
    },
  });
  for (const sig of /** @type {const} */ (['SIGINT', 'SIGTERM', 'SIGHUP'])) process.on(sig, () => child.kill(sig));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
  return new Promise(() => {});
}
