import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { OfficeKind } from '../../operations/convert/interfaces';
import { noNetworkPrefix } from '../../isolation';
import { toolEnv, type ToolEnvBase } from '../../tool-env';
import type { Lease, ToolAccounts } from '../../tool-accounts';
import { runAsPrefix, type ToolUser } from '../../tool-user';
import { killGroup, rssBytes } from './process-group';
import { createStage, type Stage } from './handover';
import { createProfileDir, removePipeFile, removeProfileDir } from './profile';

const HELPER = fileURLToPath(new URL('./uno-helper.py', import.meta.url));
const STDERR_KEEP = 16 * 1024;

export interface OfficeJob {
  input: string;
  output: string;
  kind: OfficeKind;
  landscape?: boolean;
  fitToPage?: boolean;
  password?: string;
  exportOptions?: Record<string, boolean | number | string>;
}

/** What the helper answers for one job (see the protocol in uno-helper.py). */
export type HelperResult =
  | { ok: true; filter: string; ms: number }
  | {
      ok: false;
      code: 'PASSWORD_REQUIRED' | 'WRONG_PASSWORD' | 'INVALID_DOCUMENT' | 'ENGINE_FAILED';
      message: string;
      fatal: boolean;
      ms: number;
    };

/** How often a converting instance's size is looked at. */
const MEMORY_WATCH_MS = 200;

/** How a job ended without an answer from the helper. */
export class InstanceLost extends Error {
  constructor(
    readonly reason: 'timeout' | 'memory' | 'aborted' | 'crashed' | 'closed' | 'start-failed',
    detail: string,
  ) {
    super(detail);
    this.name = 'InstanceLost';
  }
}

export interface InstanceOptions {
  python: string;
  soffice: string;
  startupTimeoutMs: number;
  /** Start the helper (and so soffice) in a network namespace of its own (core/isolation.ts). */
  noNetwork?: boolean;
  /**
   * Start the helper (and so soffice) as this unprivileged account (core/tool-user.ts) when `accounts` has none
   * free: the base account, which owns no workspace.
   */
  toolUser?: ToolUser | null;
  /**
   * The tools' accounts (core/tool-accounts.ts): the instance leases one for its life, so that no other instance (nor
   * any request's tool) reads what it converts. Each job's files are handed over through its stage (handover.ts).
   */
  accounts?: Pick<ToolAccounts, 'tryLease'>;
  /** What the helper and soffice take from the server's environment (PATH, the font configuration). */
  toolEnv?: ToolEnvBase;
}

interface Pending {
  id: number;
  resolve(r: HelperResult): void;
  reject(e: InstanceLost): void;
}

/**
 * One warm soffice with its UNO helper: a Python process (leading its own process group) that starts soffice on a
 * private pipe and profile, then converts one job at a time, JSON lines over stdin/stdout. Whatever goes wrong
 * (timeout, abort, crash, protocol), the instance is killed as a whole group and never reused.
 */
export class OfficeInstance {
  /** Resolves once soffice accepts jobs; rejects (InstanceLost 'start-failed') otherwise. */
  readonly ready: Promise<void>;
  jobs = 0;
  dead = false;
  sofficePid: number | undefined;
  /** Security settings as read back from soffice's configuration after they were applied. */
  security: Record<string, unknown> | undefined;
  /** Resolves once every process of the instance has gone and its profile dir is removed. */
  readonly stopped: Promise<void>;
  private markStopped!: () => void;

  /** This instance's private profile (its path is on soffice's command line: `pgrep -f` finds the processes). */
  profileDir: string | undefined;
  /** Where jobs' files are handed to it (handover.ts). */
  stage: Stage | undefined;
  private lease: Lease | null = null;
  private child: ChildProcess | undefined;
  private readonly pipeName = `docflow-lo-${process.pid}-${randomBytes(6).toString('hex')}`;
  private pending: Pending | null = null;
  private nextId = 1;
  private stdoutBuf = '';
  private stderrTail = '';
  private onReady:
    | ((msg: { ready: boolean; message?: string; sofficePid?: number; security?: Record<string, unknown> }) => void)
    | null = null;

  constructor(private readonly opts: InstanceOptions) {
    this.stopped = new Promise<void>((resolve) => {
      this.markStopped = resolve;
    });
    this.ready = this.start();
    this.ready.catch(() => undefined); // observed by whoever awaits it; never an unhandled rejection
  }

  get pid(): number | undefined {
    return this.child?.pid;
  }

  get busy(): boolean {
    return this.pending !== null;
  }

  private async start(): Promise<void> {
    this.lease = (await this.opts.accounts?.tryLease().catch(() => null)) ?? null;
    const user = this.user;
    let helper = HELPER;
    try {
      this.profileDir = await createProfileDir(user);
      this.stage = await createStage(user);
      // The tools' account may not reach the server's install folder (a clone under /root): it runs its own copy.
      if (user) await copyFile(HELPER, (helper = path.join(this.profileDir, 'uno-helper.py')));
    } catch (err) {
      await this.cleanup();
      this.markStopped();
      throw new InstanceLost('start-failed', `the instance's folders could not be made: ${String(err)}`);
    }
    if (this.dead) {
      await this.cleanup();
      this.markStopped();
      throw new InstanceLost('closed', 'closed while starting');
    }
    // Without network: a document's WEBSERVICE, linked images or update links reach nothing (the pipe is a file).
    const [cmd, ...prefix] = [
      ...(this.opts.noNetwork ? noNetworkPrefix() : []),
      ...runAsPrefix(user),
      this.opts.python,
    ];
    const child = spawn(
      cmd!,
      [
        ...prefix,
        helper,
        '--soffice',
        this.opts.soffice,
        '--profile',
        this.profileDir,
        '--pipe',
        this.pipeName,
        '--startup-ms',
        String(this.opts.startupTimeoutMs),
      ],
      // detached: the helper leads a new process group that soffice joins, so one kill takes all of it.
      {
        // Not the server's folder: the tools' account may not be let into it (a clone under /root or a 0700 dir).
        cwd: this.profileDir,
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe'],
        env: toolEnv({ ...this.opts.toolEnv, PYTHONUNBUFFERED: '1', PYTHONDONTWRITEBYTECODE: '1' }, user),
      },
    );
    this.child = child;
    child.stdout!.setEncoding('utf8');
    child.stdout!.on('data', (chunk: string) => this.onStdout(chunk));
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-STDERR_KEEP);
    });
    child.stdin!.on('error', () => undefined); // a helper that died: reported by 'exit'
    const gone = () => {
      killGroup(child.pid); // soffice may outlive a helper that died on its own
      void this.cleanup().then(this.markStopped);
    };
    child.on('error', (e) => {
      this.lost('crashed', `helper could not run: ${e.message}`);
      gone();
    });
    child.on('exit', (code, sig) => {
      this.lost('crashed', `helper exited with ${sig ?? code}`);
      gone();
    });

    const ready = await new Promise<{
      ready: boolean;
      message?: string;
      sofficePid?: number;
      security?: Record<string, unknown>;
    }>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new InstanceLost('start-failed', `soffice did not start within ${this.opts.startupTimeoutMs} ms`)),
        this.opts.startupTimeoutMs + 5000,
      );
      this.onReady = (msg) => {
        clearTimeout(timer);
        resolve(msg);
      };
      this.pending = {
        id: 0,
        resolve: () => undefined,
        reject: (e) => {
          clearTimeout(timer);
          reject(new InstanceLost('start-failed', e.message));
        },
      };
    }).catch((e: unknown) => {
      this.kill();
      throw e;
    });
    this.pending = null;
    this.onReady = null;
    if (!ready.ready) {
      this.kill();
      throw new InstanceLost('start-failed', ready.message ?? 'soffice did not start');
    }
    this.sofficePid = ready.sofficePid;
    this.security = ready.security;
    this.idle();
  }

  /** Run one job; rejects with InstanceLost when the instance had to be killed (it is then dead). */
  convert(job: OfficeJob, timeoutMs: number, signal?: AbortSignal, memoryLimitBytes = 0): Promise<HelperResult> {
    if (this.dead || !this.child) return Promise.reject(new InstanceLost('crashed', 'instance is not running'));
    if (this.pending) return Promise.reject(new Error('instance is busy'));
    const id = this.nextId++;
    this.jobs++;
    return new Promise<HelperResult>((resolve, reject) => {
      const done = () => {
        clearTimeout(timer);
        clearInterval(watch);
        signal?.removeEventListener('abort', onAbort);
        this.pending = null;
        this.idle();
      };
      // A UNO call cannot be interrupted: a job past its time or whose client left costs the whole instance.
      const timer = setTimeout(() => {
        this.fail(new InstanceLost('timeout', `conversion exceeded ${timeoutMs} ms`));
      }, timeoutMs);
      // Its size is looked at while it works: a document that makes it grow past the limit is stopped there, not
      // when the machine runs out.
      const watch = setInterval(() => {
        if (!memoryLimitBytes) return;
        void this.rss().then((rss) => {
          if (rss > memoryLimitBytes && this.pending?.id === id)
            this.fail(new InstanceLost('memory', `soffice reached ${Math.round(rss / 1_048_576)} MB`));
        });
      }, MEMORY_WATCH_MS);
      watch.unref();
      const onAbort = () => this.fail(new InstanceLost('aborted', 'request cancelled'));
      this.pending = {
        id,
        resolve: (r) => {
          done();
          resolve(r);
        },
        reject: (e) => {
          done();
          reject(e);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.busyRef();
      this.child!.stdin!.write(
        JSON.stringify({
          id,
          input: job.input,
          output: job.output,
          kind: job.kind,
          landscape: !!job.landscape,
          fitToPage: !!job.fitToPage,
          password: job.password ?? null,
          exportOptions: job.exportOptions ?? {},
        }) + '\n',
      );
      if (signal?.aborted) onAbort();
    });
  }

  /** soffice's resident size: it grows with every conversion (ENGINE-NOTES: ~86 MB idle, ~425 MB after 250). */
  rss(): Promise<number> {
    return rssBytes(this.sofficePid);
  }

  /** The last lines soffice and the helper wrote on stderr (for the log, never for a client). */
  get stderr(): string {
    return this.stderrTail.slice(-4000);
  }

  /**
   * Stop every process of the instance and forget it (idempotent). soffice.bin is killed first and the helper told
   * to go (stdin closed), so each process is reaped by its own parent; the whole group is killed if anything is
   * still there shortly after (a helper stuck in a call, a wedged wrapper).
   */
  kill(): void {
    if (this.dead) return;
    this.dead = true;
    this.pending?.reject(new InstanceLost('closed', 'instance stopped'));
    this.pending = null;
    const child = this.child;
    if (!child) return; // still creating its profile: start() sees `dead` and cleans up
    if (this.sofficePid) {
      try {
        process.kill(this.sofficePid, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }
    child.stdin?.end();
    if (child.exitCode === null && child.signalCode === null) {
      const timer = setTimeout(() => killGroup(child.pid), this.sofficePid ? 3000 : 0);
      timer.unref();
      child.once('exit', () => clearTimeout(timer));
    }
  }

  private fail(err: InstanceLost): void {
    const p = this.pending;
    this.pending = null;
    this.kill();
    p?.reject(err);
  }

  /** Set when the instance died on its own (not stopped by the pool): when and how. */
  crash: { at: number; detail: string } | null = null;

  private lost(reason: 'crashed', detail: string): void {
    if (this.dead) return;
    this.crash = { at: Date.now(), detail };
    this.fail(new InstanceLost(reason, `${detail}; stderr: ${this.stderr.slice(-1000)}`));
  }

  /** The account this instance runs as (null: the server's own). */
  get user(): ToolUser | null {
    return this.lease?.user ?? this.opts.toolUser ?? null;
  }

  private async cleanup(): Promise<void> {
    if (this.profileDir) await removeProfileDir(this.profileDir);
    await this.stage?.remove().catch(() => undefined);
    await removePipeFile(this.pipeName, this.user);
    // Given back once its processes are gone (the return sweeps what is left of them).
    const lease = this.lease;
    this.lease = null;
    await lease?.release();
  }

  private onStdout(chunk: string): void {
    this.stdoutBuf += chunk;
    let nl: number;
    while ((nl = this.stdoutBuf.indexOf('\n')) >= 0) {
      const line = this.stdoutBuf.slice(0, nl).trim();
      this.stdoutBuf = this.stdoutBuf.slice(nl + 1);
      if (!line) continue;
      let msg: Record<string, unknown>;
      try {
        msg = JSON.parse(line) as Record<string, unknown>;
      } catch {
        this.fail(new InstanceLost('crashed', `helper protocol error: ${line.slice(0, 200)}`));
        return;
      }
      if ('ready' in msg) {
        this.onReady?.(msg as { ready: boolean });
        continue;
      }
      const p = this.pending;
      if (!p || msg.id !== p.id) continue; // a late answer for a job already given up
      const r = msg as unknown as HelperResult;
      if (!r.ok && r.fatal) {
        // The helper is taking its group down; make sure of it and answer the job with what happened.
        this.pending = null;
        this.kill();
      }
      p.resolve(r);
    }
  }

  // The instance's pipes keep Node's event loop alive only while a job runs: an idle pool never holds up exit.
  private busyRef(): void {
    this.child?.ref();
    (this.child?.stdout as unknown as { ref?: () => void } | null)?.ref?.();
  }

  private idle(): void {
    this.child?.unref();
    for (const s of [this.child?.stdout, this.child?.stderr, this.child?.stdin])
      (s as unknown as { unref?: () => void } | null)?.unref?.();
  }
}
