import { chmodSync, existsSync, mkdtempSync, readFileSync, readlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runTool as runToolWith, ToolFailedError, type RunToolOptions } from '../../src/core/run-tool';
import { localSpawner, type ProcessSpawner } from '../../src/core/spawn-process';
import { noNetworkMode } from '../../src/core/isolation';
import { ToolHost, type HostConfinement } from '../../src/core/tool-host';
import { resolveToolUser } from '../../src/core/tool-user';
import { Limiter } from '../../src/core/limiter';

/** Running (a killed process not yet reaped by its new parent shows as a zombie, state Z). */
const alive = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return !/^\d+ \(.*\) Z/.test(stat);
  } catch {
    return false;
  }
};

// A secret of the server's environment, set before the tool host starts (it is forked on first use).
process.env.DOCFLOW_TEST_SECRET = 'server-secret-value';
const host = new ToolHost();
afterAll(() => host.close());

// The same behaviour whether tools start from this process or from the tool host.
describe.each<[string, ProcessSpawner]>([
  ['in process', localSpawner],
  ['through the tool host', host],
])('runTool %s', (_name, spawner) => {
  const runTool = (cmd: string, args: string[], opts: RunToolOptions = {}) =>
    runToolWith(cmd, args, { spawner, ...opts });

  it("starts a tool with its own small environment, none of the server's (secrets, database and SMTP URLs)", async () => {
    const env = (await runTool('env', [])).stdout.toString();
    expect(env).not.toContain('server-secret-value');
    expect(env).not.toMatch(/^(JWT_SECRET|DATABASE_URL|SMTP_URL|ADMIN_PASSWORD|DOCFLOW_TEST_SECRET)=/m);
    expect(env).toMatch(/^PATH=/m);
    expect(env).toMatch(/^LC_ALL=C\.UTF-8$/m);
    expect(env).toMatch(/^HOME=.*docflow-tools-home/m);
    // What a caller adds for one call still reaches that call.
    const own = (await runTool('env', [], { env: { OMP_THREAD_LIMIT: '1' } })).stdout.toString();
    expect(own).toMatch(/^OMP_THREAD_LIMIT=1$/m);
  });

  it('captures stdout and stderr, no shell involved', async () => {
    const r = await runTool('sh', ['-c', 'echo out; echo err >&2', '$(touch /tmp/never)']);
    expect(r.stdout.toString()).toBe('out\n');
    expect(r.stderr).toBe('err\n');
    expect(r.exitCode).toBe(0);
    // An argument with shell syntax is just an argument.
    const echo = await runTool('echo', ['$(id)', ';', 'rm -rf /']);
    expect(echo.stdout.toString()).toBe('$(id) ; rm -rf /\n');
  });

  it('a timeout kills the whole process group (grandchildren too) and reports TIMEOUT', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'rt-'));
    const pidFile = path.join(dir, 'pid');
    // The grandchild would sleep past the test's own timeout: an answer at all means the group was not waited for.
    const err = await runTool('sh', ['-c', `sleep 600 & echo $! > ${pidFile}; wait`], { timeoutMs: 300 }).catch(
      (e) => e,
    );
    expect(err.code).toBe('TIMEOUT');
    expect(err.message).toMatch(/took longer than 0.3 s/);
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    await new Promise((r) => setTimeout(r, 100));
    expect(alive(grandchild)).toBe(false);
  });

  it('an unexpected exit code is a ToolFailedError with stderr kept for the log', async () => {
    const err = await runTool('sh', ['-c', 'echo broken >&2; exit 3']).catch((e) => e);
    expect(err).toBeInstanceOf(ToolFailedError);
    expect(err.exitCode).toBe(3);
    expect(err.stderr).toContain('broken');
    expect(err.message).not.toContain('broken'); // never shown to the client
    expect((await runTool('sh', ['-c', 'exit 3'], { okExitCodes: [0, 3] })).exitCode).toBe(3);
  });

  it('caps stdout: OUTPUT_TOO_LARGE, or truncation on request', async () => {
    const err = await runTool('sh', ['-c', 'yes'], { maxStdout: 1000 }).catch((e) => e);
    expect(err.code).toBe('OUTPUT_TOO_LARGE');
    const r = await runTool('sh', ['-c', 'yes'], { maxStdout: 1000, onStdoutOverflow: 'truncate' });
    expect(r.truncated).toBe(true);
    expect(r.stdout.length).toBe(1000);
  });

  it('a missing tool is an engine failure, not a crash', async () => {
    const err = await runTool('definitely-not-a-tool-xyz', []).catch((e) => e);
    expect(err.code).toBe('ENGINE_FAILED');
  });

  it('cancellation kills the tool (ABORTED)', async () => {
    const ac = new AbortController();
    const p = runTool('sleep', ['30'], { signal: ac.signal });
    setTimeout(() => ac.abort(), 50);
    expect((await p.catch((e) => e)).code).toBe('ABORTED');
  });

  it('applies rlimits through prlimit: a file larger than allowed is refused', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'rt-'));
    const f = path.join(dir, 'big');
    const err = await runTool('sh', ['-c', `head -c 3000000 /dev/zero > ${f}`], {
      fileSizeLimitBytes: 1_000_000,
    }).catch((e) => e);
    expect(err).toBeInstanceOf(Error);
    expect(['OUTPUT_TOO_LARGE', 'ENGINE_FAILED']).toContain(err.code);
    expect(existsSync(f) ? readFileSync(f).length : 0).toBeLessThanOrEqual(1_000_000);
  });

  it('takes a limiter slot: a full queue refuses before spawning', async () => {
    const limiter = new Limiter({ concurrency: 1, queueSize: 0 });
    const first = runTool('sleep', ['0.3'], { limiter });
    const err = await runTool('true', [], { limiter }).catch((e) => e);
    expect(err.code).toBe('QUEUE_FULL');
    await first;
  });
});

describe('the tool host', () => {
  it('runs tools from its own small process', async () => {
    const h = new ToolHost();
    try {
      const r = await runToolWith('sh', ['-c', 'echo $PPID'], { spawner: h });
      expect(Number(r.stdout.toString())).toBe(h.pid);
      expect(h.pid).not.toBe(process.pid);
    } finally {
      await h.close();
    }
  });

  it('dies mid-run: its tools are killed and the work is done again from this process', async () => {
    const h = new ToolHost();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'rt-'));
    const pidFile = path.join(dir, 'pid');
    try {
      await runToolWith('true', [], { spawner: h }); // started
      const hostPid = h.pid!;
      const p = runToolWith('sh', ['-c', `echo $$ >> ${pidFile}; sleep 0.6; echo done`], { spawner: h });
      await new Promise((r) => setTimeout(r, 200));
      process.kill(hostPid, 'SIGKILL');
      const r = await p;
      expect(r.stdout.toString()).toBe('done\n');
      const [first, second] = readFileSync(pidFile, 'utf8').trim().split('\n').map(Number);
      expect(second).toBeDefined();
      expect(alive(first!)).toBe(false); // the run the host had started was killed with it
      // The next run gets a new host.
      expect((await runToolWith('echo', ['again'], { spawner: h })).stdout.toString()).toBe('again\n');
      expect(h.pid).not.toBe(hostPid);
    } finally {
      await h.close();
    }
  });

  it('closing it kills what it is running', async () => {
    const h = new ToolHost();
    const dir = mkdtempSync(path.join(os.tmpdir(), 'rt-'));
    const pidFile = path.join(dir, 'pid');
    const p = runToolWith('sh', ['-c', `echo $$ > ${pidFile}; exec sleep 30`], { spawner: h }).catch((e) => e);
    for (let i = 0; i < 50 && !existsSync(pidFile); i++) await new Promise((r) => setTimeout(r, 50));
    const pid = Number(readFileSync(pidFile, 'utf8'));
    await h.close();
    await new Promise((r) => setTimeout(r, 200));
    expect(alive(pid)).toBe(false);
    void p;
  });
});

describe('a tool host started confined (what the server does)', () => {
  // What every tool of the server gets: no network, the tools' account when this is root, the ceilings.
  const confinement: HostConfinement = {
    noNetwork: true,
    runAs: resolveToolUser('docflow-tools'),
    prlimit: ['--fsize=1000000'],
  };
  const h = new ToolHost(confinement);
  afterAll(() => h.close());
  const asked = { spawner: h, network: false, runAs: confinement.runAs, fileSizeLimitBytes: 1_000_000 };
  const netns = (pid: number | string) => readlinkSync(`/proc/${pid}/ns/net`);
  /** A folder the tools' account can write to. */
  const sharedDir = () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'rt-'));
    chmodSync(dir, 0o777);
    return dir;
  };
  /** The tool's parent, account, network namespace and no-new-privs flag, as the tool itself sees them. */
  const whoAmI = (opts: RunToolOptions) =>
    runToolWith(
      'sh',
      ['-c', 'echo $PPID $(id -u) $(readlink /proc/self/ns/net) $(grep NoNewPrivs /proc/self/status | cut -f2)'],
      opts,
    ).then((r) => r.stdout.toString().trim().split(' '));

  it('starts its tools confined as they ask, without wrappers: its own children, the account, no network, no new privileges, the ceilings', async () => {
    const [parent, uid, ns, noNewPrivs] = await whoAmI(asked);
    expect(Number(parent)).toBe(h.pid);
    expect(Number(uid)).toBe(confinement.runAs?.uid ?? process.getuid!());
    if (noNetworkMode() !== 'unavailable') expect(ns).not.toBe(netns('self'));
    expect(noNewPrivs).toBe(confinement.runAs ? '1' : '0');
    const dir = sharedDir();
    const f = path.join(dir, 'big');
    const err = await runToolWith('sh', ['-c', `head -c 3000000 /dev/zero > ${f}`], asked).catch((e) => e);
    expect(['OUTPUT_TOO_LARGE', 'ENGINE_FAILED']).toContain(err.code);
    expect(readFileSync(f).length).toBeLessThanOrEqual(1_000_000);
  });

  it('a tool that asks for something else (no ceilings) starts from this process, with its own wrappers', async () => {
    const [parent, uid, ns] = await whoAmI({ ...asked, rlimits: false });
    // unshare and setpriv exec in place: the tool's parent is this process.
    expect(Number(parent)).toBe(process.pid);
    expect(Number(uid)).toBe(confinement.runAs?.uid ?? process.getuid!());
    if (noNetworkMode() !== 'unavailable') expect(ns).not.toBe(netns('self'));
  });

  it('dies: what it had in hand runs again from this process, confined by wrappers as it asked', async () => {
    await whoAmI(asked);
    const hostPid = h.pid!;
    const dir = sharedDir();
    const marker = path.join(dir, 'started');
    const p = runToolWith(
      'sh',
      ['-c', `echo >> ${marker}; sleep 0.5; echo $PPID $(id -u) $(readlink /proc/self/ns/net)`],
      asked,
    );
    for (let i = 0; i < 50 && !existsSync(marker); i++) await new Promise((r) => setTimeout(r, 20));
    process.kill(hostPid, 'SIGKILL');
    const [parent, uid, ns] = (await p).stdout.toString().trim().split(' ');
    expect(Number(parent)).toBe(process.pid);
    expect(Number(uid)).toBe(confinement.runAs?.uid ?? process.getuid!());
    if (noNetworkMode() !== 'unavailable') expect(ns).not.toBe(netns('self'));
  });
});
