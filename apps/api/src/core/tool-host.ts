import { spawn, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  confinementWrappers,
  spawnProcess,
  type ProcessSpawner,
  type SpawnOutcome,
  type SpawnRequest,
} from './spawn-process';
import { toolEnv, type ToolEnvBase } from './tool-env';
import type { ToolUser } from './tool-user';

/**
 * What every tool of the server is started with, given to the host itself: it starts inside it (its own network
 * namespace, no new privileges, the ceilings), its tools inherit it, and a tool costs one process start instead of
 * four (unshare, setpriv and prlimit each exec; ~4 ms apiece on a small VM). The host stays root to switch each
 * tool to the account its request leased (core/tool-accounts.ts), which then cannot signal or trace it.
 */
export interface HostConfinement {
  noNetwork: boolean;
  /** Tools run as unprivileged accounts (the base one or a request's): the host switches each to its own. */
  runAs: ToolUser | null;
  /** prlimit(1) arguments, as runTool builds them. */
  prlimit: string[];
}

/**
 * The only capabilities the host keeps, when it is root: switching a tool's user and group ids (setuid, setgid: the
 * spawn's own switch) and killing a tool's process group once it runs as another account (kill). Its bounding set
 * is empty, so no tool it starts can gain any (with no-new-privs, not even through a setuid binary); the server
 * keeps root's full set, and the host none of the rest (no reading other accounts' files, no mounts, no ptrace).
 */
export const HOST_CAPABILITIES = ['setuid', 'setgid', 'kill'] as const;

/** Whether a request asks for exactly the confinement the host runs in (any tools' account: the host switches). */
const fitsConfinement = (req: SpawnRequest, c: HostConfinement): boolean =>
  !!req.noNetwork === c.noNetwork &&
  !!req.runAs === !!c.runAs &&
  req.runAs?.uid !== 0 &&
  req.prlimit.join(' ') === c.prlimit.join(' ');

/** The command that starts the host confined (empty: unconfined). */
function confinementPrefix(c: HostConfinement | undefined): string[] {
  if (!c) return [];
  const caps = HOST_CAPABILITIES.map((cap) => `+${cap}`).join(',');
  return confinementWrappers({
    noNetwork: c.noNetwork,
    // Root keeps its power to switch accounts and nothing else; no-new-privs holds for every tool it starts. Two
    // steps, because setpriv empties the bounding set before it sets the inheritable set: the first makes the three
    // inheritable (so that root's exec of node keeps them, and only them), the second empties the bounding set.
    account: c.runAs
      ? ['setpriv', `--inh-caps=-all,${caps}`, '--', 'setpriv', '--bounding-set=-all', '--no-new-privs', '--']
      : [],
    prlimit: c.prlimit,
  });
}

export type HostMessage = { type: 'run'; id: number; req: SpawnRequest } | { type: 'kill'; id: number };
export type HostReply =
  { type: 'started'; id: number; pid: number } | { type: 'done'; id: number; outcome: SpawnOutcome };

interface Pending {
  /** As asked: run here, it gets its wrappers again. */
  req: SpawnRequest;
  signal?: AbortSignal;
  pid?: number;
  settle(o: SpawnOutcome): void;
}

/**
 * Starts tools from a lean child process (tool-host-process.ts) instead of the server: see there for why. Started
 * on first use; if it cannot start, or dies, tools run from this process instead: the work it had in hand is killed
 * (by process group) and run again here, so a request never fails because of the host.
 */
export class ToolHost implements ProcessSpawner {
  private child: ChildProcess | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  private closed = false;
  /** Consecutive deaths without a completed run: past 3 the host is given up and tools run here. */
  private failures = 0;

  /**
   * `confinement`: start the host inside it; requests that ask for exactly it run there without wrappers, the
   * others (Chromium's version check, without ceilings) from this process. Without it the host applies each
   * request's wrappers itself. `env`: what the host (and so every tool) takes from the server's environment.
   */
  constructor(
    private readonly confinement?: HostConfinement,
    private readonly env: ToolEnvBase = {},
  ) {}

  /** The host's pid (tests use it to kill it). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  execute(request: SpawnRequest, signal?: AbortSignal): Promise<SpawnOutcome> {
    const fits = !this.confinement || fitsConfinement(request, this.confinement);
    const child = fits ? this.ensure() : null;
    if (!child) return spawnProcess(request, signal);
    const id = this.nextId++;
    return new Promise<SpawnOutcome>((resolve) => {
      const onAbort = () => child.connected && child.send({ type: 'kill', id } satisfies HostMessage);
      const entry: Pending = {
        req: request,
        signal,
        settle: (o) => {
          this.pending.delete(id);
          signal?.removeEventListener('abort', onAbort);
          if (this.pending.size === 0) this.setRef(false);
          resolve(o);
        },
      };
      this.pending.set(id, entry);
      this.setRef(true);
      signal?.addEventListener('abort', onAbort, { once: true });
      // The tool's environment is made here: its home is created and handed to its account by this process (the
      // host may not chown).
      const req: SpawnRequest = {
        ...request,
        env: toolEnv(request.env, request.runAs),
        ...(this.confinement ? { confined: true } : {}),
      };
      child.send({ type: 'run', id, req } satisfies HostMessage, (err) => {
        if (err && this.pending.has(id)) this.runHere(entry);
      });
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      const t = setTimeout(() => child.kill('SIGKILL'), 2000);
      child.once('exit', () => {
        clearTimeout(t);
        resolve();
      });
      if (child.connected) child.disconnect();
      else child.kill('SIGKILL');
    });
  }

  private ensure(): ChildProcess | null {
    if (this.child) return this.child;
    if (this.closed || this.failures >= 3) return null;
    const entry = fileURLToPath(
      new URL(`./tool-host-process${import.meta.url.endsWith('.ts') ? '.ts' : '.js'}`, import.meta.url),
    );
    // Running from TypeScript sources (tsx), the host needs the same loader; built JS runs as is.
    const execArgv = entry.endsWith('.ts')
      ? ['--import', pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href]
      : [];
    const [file = process.execPath, ...args] = [
      ...confinementPrefix(this.confinement),
      process.execPath,
      ...execArgv,
      entry,
    ];
    let child: ChildProcess;
    try {
      // The host runs only our spawning code, but it is the parent of every tool: it gets the tools' environment too.
      child = spawn(file, args, {
        env: toolEnv({ ...this.env }),
        serialization: 'advanced',
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
    } catch {
      this.failures++;
      return null;
    }
    if (child.pid === undefined) {
      // Not started (a wrapper missing): 'error' follows, and no 'exit'.
      child.on('error', () => undefined);
      this.failures++;
      return null;
    }
    this.child = child;
    child.on('message', (m: HostReply) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      if (m.type === 'started') p.pid = m.pid;
      else {
        this.failures = 0;
        p.settle(m.outcome);
      }
    });
    child.on('error', () => undefined); // reported through 'exit'
    child.on('exit', () => {
      if (this.child === child) this.child = null;
      if (this.closed && this.pending.size === 0) return;
      this.failures++;
      for (const p of [...this.pending.values()]) {
        if (p.pid !== undefined) {
          try {
            process.kill(-p.pid, 'SIGKILL');
          } catch {
            /* already gone */
          }
        }
        this.runHere(p);
      }
    });
    this.setRef(this.pending.size > 0);
    return child;
  }

  /** Run a request from this process (the host is gone or could not take it). */
  private runHere(p: Pending): void {
    p.pid = undefined;
    void spawnProcess(p.req, p.signal).then((o) => p.settle(o));
  }

  /** An idle host must not keep the server process alive. */
  private setRef(busy: boolean): void {
    const c = this.child as (ChildProcess & { channel?: { ref(): void; unref(): void } }) | null;
    if (!c) return;
    if (busy) {
      c.ref();
      c.channel?.ref();
    } else {
      c.unref();
      c.channel?.unref();
    }
  }
}
