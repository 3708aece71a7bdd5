import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { spawnProcess, type ProcessSpawner, type SpawnOutcome, type SpawnRequest } from './spawn-process';
import { toolEnv } from './tool-env';

export type HostMessage = { type: 'run'; id: number; req: SpawnRequest } | { type: 'kill'; id: number };
export type HostReply =
  { type: 'started'; id: number; pid: number } | { type: 'done'; id: number; outcome: SpawnOutcome };

interface Pending {
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

  /** The host's pid (tests use it to kill it). */
  get pid(): number | undefined {
    return this.child?.pid;
  }

  execute(req: SpawnRequest, signal?: AbortSignal): Promise<SpawnOutcome> {
    const child = this.ensure();
    if (!child) return spawnProcess(req, signal);
    const id = this.nextId++;
    return new Promise<SpawnOutcome>((resolve) => {
      const onAbort = () => child.connected && child.send({ type: 'kill', id } satisfies HostMessage);
      const entry: Pending = {
        req,
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
    let child: ChildProcess;
    try {
      // The host runs only our spawning code, but it is the parent of every tool: it gets the tools' environment too.
      child = fork(entry, [], {
        execArgv,
        env: toolEnv(),
        serialization: 'advanced',
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      });
    } catch {
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
