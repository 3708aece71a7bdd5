import { spawn, type ChildProcess } from 'node:child_process';
// @ts-expect-error plain .mjs set-up script without types
import { apiServerEntry, ensureApiBuild, root } from '../../../../scripts/bootstrap.mjs';
// @ts-expect-error plain .mjs set-up script without types
import { serverEnv, serverNodeOptions } from '../../../../scripts/server-node-options.mjs';

/**
 * The server as `npm start` runs it: compiled (apps/api/dist, built first when stale), with the launcher's Node
 * options, the embedded database in `dataDir` and no Redis, on its own port. Resolves once /health answers.
 */
export async function startCompiledServer(
  dataDir: string,
  port: number,
  env: Record<string, string> = {},
): Promise<ChildProcess> {
  ensureApiBuild();
  const child = spawn(process.execPath, [...serverNodeOptions, apiServerEntry], {
    cwd: root,
    env: {
      ...process.env,
      ...serverEnv,
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: '',
      REDIS_URL: '',
      LOG_LEVEL: 'warn',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const until = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null)
      throw new Error(`server exited with ${child.exitCode ?? child.signalCode}`);
    const ok = await fetch(`http://127.0.0.1:${port}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return child;
    if (Date.now() > until) throw new Error('server did not answer /health');
    await new Promise((r) => setTimeout(r, 200));
  }
}
