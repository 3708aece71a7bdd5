import { spawn, type ChildProcess } from 'node:child_process';
// @ts-expect-error plain .mjs set-up script without types
import { apiServerEntry, ensureApiBuild, root } from '../../../../scripts/bootstrap.mjs';
// @ts-expect-error plain .mjs set-up script without types
import { serverEnv, serverNodeOptions } from '../../../../scripts/server-node-options.mjs';

const outputs = new WeakMap<ChildProcess, string[]>();

/** The last lines a server started here wrote (stdout and stderr), for a failed assertion's message. */
export const serverOutput = (child: ChildProcess): string => (outputs.get(child) ?? []).join('').slice(-6000);

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
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Shown as it comes, and kept (the end of it) for a test to quote when the server did not behave.
  const kept: string[] = [];
  for (const [stream, out] of [
    [child.stdout!, process.stdout],
    [child.stderr!, process.stderr],
  ] as const)
    stream.on('data', (chunk: Buffer) => {
      out.write(chunk);
      kept.push(chunk.toString());
      while (kept.length > 50) kept.shift();
    });
  outputs.set(child, kept);
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
