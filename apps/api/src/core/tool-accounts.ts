import { randomBytes } from 'node:crypto';
import {
  linkSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { readFile, unlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { EngineError } from './errors';
import { aborted } from './limiter';
import type { ToolUser } from './tool-user';

/** An account held by one request (or one engine instance) until it gives it back. */
export interface Lease {
  readonly user: ToolUser;
  /** Settles once the account is fit for use: swept first when it was taken over from a holder that is gone. */
  readonly ready: Promise<void>;
  /** Give the account back: its processes are killed first, so none outlives the lease into the next holder's. */
  release(): Promise<void>;
}

/** What a workspace needs from the accounts: one for the life of its request. */
export interface AccountLeaser {
  /** Whether leases are accounts of a pool (false: null or the one base account, at once, never waited for). */
  readonly isolated: boolean;
  /**
   * A free account now, or null when every one is held. Synchronous: the processing queue takes it in the same
   * step as the slot it gives a request's tool (limiter.ts, SlotGate), so waiting for one is waiting in the queue.
   */
  leaseNow(): Lease | null;
  /**
   * For a caller outside the processing queue: null when tools run as the server's own account (it is not root).
   * Refused with QUEUE_FULL when every account stays held for the whole wait.
   */
  lease(signal?: AbortSignal): Promise<Lease | null>;
}

export interface ToolAccountsStats {
  /** Accounts of the pool (0: every tool shares the base account, as before the pool existed). */
  size: number;
  /** Held by this process (requests and LibreOffice instances). */
  leased: number;
  /** Requests of this process waiting for an account. */
  waiting: number;
}

export interface ToolAccountsOptions {
  /** Kill every process of `user` and remove what it left (run as that account: `kill -9 -1`). */
  sweep?: (user: ToolUser) => Promise<void>;
  /** The same, synchronously, for the leases still held when the process exits (its event loop is over). */
  sweepNow?: (user: ToolUser) => void;
  lockDir?: string;
  /**
   * How long `lease` (a caller outside the processing queue) waits while every account is held before it is refused
   * as the full queue is (503 QUEUE_FULL): a wait without end is a hang. Requests' tools never wait here: they wait
   * in the processing queue (leaseNow).
   */
  waitMs?: number;
}

/** How often a request waiting for an account looks again for one another process gave back. */
const POLL_MS = 50;
export const LEASE_WAIT_MS = 5_000;

/**
 * Who holds a lock: the pid and the process's start time (field 22 of /proc/<pid>/stat), so that a pid the kernel
 * gave again to another process after the holder died is not taken for the holder.
 */
function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

const self = `${process.pid} ${processStart(process.pid) ?? ''}`.trim();

/** Whether the process named in a lock (`pid start`) still runs. */
function holderAlive(owner: string): boolean {
  const [pidText, start] = owner.trim().split(' ');
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  const now = processStart(pid);
  return now !== null && (start === undefined || now === start);
}

/** A lease of this process, known to the exit hook and to the test guard. */
interface LiveLease {
  readonly user: ToolUser;
  /** Where it was taken (a stack): the test guard names who never gave it back. */
  readonly takenAt: string;
  release(): Promise<void>;
  releaseNow(): void;
}

const live = new Map<string, LiveLease>();
let exitHookSet = false;

/**
 * The leases still held when this process exits are given back then: their accounts swept and their locks removed,
 * so the pool does not wait for the next holder to find the pid dead. A process killed outright runs no hook: its
 * locks are reclaimed by the next process that looks (`holderAlive`).
 */
function watchExit(): void {
  if (exitHookSet) return;
  exitHookSet = true;
  process.once('exit', () => {
    for (const lease of live.values()) lease.releaseNow();
  });
}

/** The leases this process holds now, with where each was taken (tests: a file must end holding none). */
export function heldLeases(): Array<{ user: ToolUser; takenAt: string }> {
  return [...live.values()].map(({ user, takenAt }) => ({ user, takenAt }));
}

const defaultLockDir = () => path.join(os.tmpdir(), 'docflow-tool-leases');

/** How many locks of `lockDir` name a process that is gone (a process killed outright leaves its locks). */
export function deadLocks(lockDir = defaultLockDir()): number {
  let names: string[];
  try {
    names = readdirSync(lockDir).filter((n) => /^\d+$/.test(n));
  } catch {
    return 0;
  }
  return names.filter((n) => {
    try {
      return !holderAlive(readFileSync(path.join(lockDir, n), 'utf8'));
    } catch {
      return false;
    }
  }).length;
}

/** Give back every lease of this process (a test file's guard, after it has reported them). */
export async function releaseAllLeases(): Promise<void> {
  await Promise.all([...live.values()].map((l) => l.release()));
}

/**
 * The tools' accounts when the server runs as root. A request's workspace is mode 0700 and owned by the account its
 * request leased, so a tool turned by a hostile document while serving request A runs as an account that owns
 * nothing of request B, and reads none of it. A LibreOffice instance, which serves many requests in turn, leases one
 * for its life and is handed each job's file (modules/libreoffice/handover.ts); Chromium runs as the base account,
 * which owns no workspace (the server answers its page's requests and writes its output).
 *
 * A lease is a lock file (holding the pid and the process's start time) in a folder only root may enter, so that
 * every DocFlow process of the machine (API nodes and workers side by side) draws from the one pool. A lease dies
 * with its holder: a process gives back what it still holds when it exits, and the lock of one that was killed is
 * reclaimed by the next that looks. A request takes its account with its first tool's processing slot (`leaseNow`,
 * from the limiter: SlotGate); when every one is held it waits in the processing queue, as for a slot, until one is
 * given back (`onGiveBack`, or found free by the queue's next look), refused only when that queue is full: the pool
 * can be smaller than the queue without refusing anything the queue admits. A returned or reclaimed account is swept
 * first: whatever still runs as it (a tool that left its process group) is killed.
 *
 * Without a pool (the accounts were not created) every lease is the base account, shared by all requests: the
 * isolation of the previous versions, which the server logs at start.
 */
export class ToolAccounts implements AccountLeaser {
  private readonly waiters = new Set<() => void>();
  /** Told when an account of this process is given back (the processing queue looks for waiters to start). */
  private readonly givenBack = new Set<() => void>();
  private readonly held = new Set<number>();
  private readonly pool: readonly ToolUser[];
  private readonly sweep: (user: ToolUser) => Promise<void>;
  private readonly sweepNow: (user: ToolUser) => void;
  private readonly lockDir: string;
  private readonly waitMs: number;
  private lockDirReady = false;

  constructor(
    /** The base account (Chromium, probes); null when the server is not root: tools then run as the server. */
    readonly base: ToolUser | null,
    pool: readonly ToolUser[],
    opts: ToolAccountsOptions = {},
  ) {
    this.pool = base ? [...pool] : [];
    this.sweep = opts.sweep ?? (async () => undefined);
    this.sweepNow = opts.sweepNow ?? (() => undefined);
    this.lockDir = opts.lockDir ?? defaultLockDir();
    this.waitMs = opts.waitMs ?? LEASE_WAIT_MS;
  }

  /** Each request's tools run as an account no other live request holds. */
  get isolated(): boolean {
    return this.pool.length > 0;
  }

  /**
   * An account for the life of a request, for a caller outside the processing queue (requests' tools take theirs
   * with their slot: leaseNow). While all are held it waits (cancellable) up to `waitMs`, then refuses with
   * QUEUE_FULL: a holder that never gives back cannot hang every later request.
   */
  async lease(signal?: AbortSignal): Promise<Lease | null> {
    if (!this.base) return null;
    if (!this.isolated) return this.shared(this.base);
    const deadline = performance.now() + this.waitMs;
    for (;;) {
      if (signal?.aborted) throw aborted();
      const lease = await this.tryLease();
      if (lease) return lease;
      const left = deadline - performance.now();
      if (left <= 0) throw this.busy();
      await new Promise<void>((resolve) => {
        const wake = () => {
          clearTimeout(timer);
          this.waiters.delete(wake);
          signal?.removeEventListener('abort', wake);
          resolve();
        };
        const timer = setTimeout(wake, Math.min(POLL_MS, left));
        this.waiters.add(wake);
        signal?.addEventListener('abort', wake, { once: true });
      });
    }
  }

  /** A free account now, ready for use, or null when every one is held (the caller decides: wait, or share the base account). */
  async tryLease(): Promise<Lease | null> {
    if (!this.isolated) return null;
    const lease = this.take();
    await lease?.ready;
    return lease;
  }

  /**
   * What a request's workspace takes with its first tool's slot: a free account of the pool (its `ready` settles
   * once it is swept, when taken over from a holder that is gone), the base account when there is no pool, null
   * when every account is held (or the server is not root: see `lease`).
   */
  leaseNow(): Lease | null {
    if (!this.base) return null;
    if (!this.isolated) return this.shared(this.base);
    return this.take();
  }

  /** Call `fn` whenever this process gives an account back; returns what stops it. */
  onGiveBack(fn: () => void): () => void {
    this.givenBack.add(fn);
    return () => this.givenBack.delete(fn);
  }

  private shared(user: ToolUser): Lease {
    return { user, ready: Promise.resolve(), release: async () => undefined };
  }

  /** A free account locked now (synchronous: the lock folder is local and each step a single system call). */
  private take(): Lease | null {
    this.ensureLockDir();
    // From a random start: processes looking at once do not all race for the first account.
    const start = Math.floor(Math.random() * this.pool.length);
    for (let i = 0; i < this.pool.length; i++) {
      const user = this.pool[(start + i) % this.pool.length]!;
      if (this.held.has(user.uid)) continue;
      const locked = this.lock(user);
      if (locked === 'free') return this.leaseOf(user, Promise.resolve());
      if (locked === 'reclaimed')
        return this.leaseOf(
          user,
          this.sweep(user).catch(() => undefined),
        );
    }
    return null;
  }

  /**
   * Take over, sweep and give back every account whose lock names a process that is gone, rather than leave that to
   * the next lease (a test run that killed servers outright ends with none left behind).
   */
  async reclaimDead(): Promise<number> {
    if (!this.isolated) return 0;
    this.ensureLockDir();
    let reclaimed = 0;
    for (const user of this.pool) {
      if (this.held.has(user.uid)) continue;
      const owner = await readFile(this.lockFile(user), 'utf8').catch(() => null);
      if (owner === null || holderAlive(owner)) continue;
      const locked = this.lock(user);
      if (locked === 'held') continue;
      const lease = this.leaseOf(user, Promise.resolve());
      if (locked === 'reclaimed') await this.sweep(user).catch(() => undefined);
      await lease.release();
      reclaimed++;
    }
    return reclaimed;
  }

  stats(): ToolAccountsStats {
    return { size: this.pool.length, leased: this.held.size, waiting: this.waiters.size };
  }

  private busy(): EngineError {
    const seconds = Math.max(1, Math.ceil(this.waitMs / 1000));
    return new EngineError('QUEUE_FULL', 'The server is busy: too many documents are being processed. Retry shortly.', {
      retryAfter: seconds,
      details: { retryAfterSeconds: seconds },
    });
  }

  private leaseOf(user: ToolUser, ready: Promise<void>): Lease {
    this.held.add(user.uid);
    const file = this.lockFile(user);
    let released = false;
    const done = () => {
      released = true;
      live.delete(file);
      this.held.delete(user.uid);
    };
    const release = async () => {
      if (released) return;
      done();
      // A sweep of the takeover still running finishes first: the two would race on the same processes.
      await ready;
      await this.sweep(user).catch(() => undefined);
      await unlink(file).catch(() => undefined);
      for (const wake of [...this.waiters]) wake();
      for (const fn of [...this.givenBack]) fn();
    };
    live.set(file, {
      user,
      takenAt: new Error('lease taken').stack ?? '',
      release,
      releaseNow: () => {
        if (released) return;
        done();
        try {
          this.sweepNow(user);
        } catch {
          // The lock goes regardless: its next holder finds the account as a dead holder's would be.
        }
        try {
          unlinkSync(file);
        } catch {
          // Already gone.
        }
      },
    });
    watchExit();
    return { user, ready, release };
  }

  private lockFile(user: ToolUser): string {
    return path.join(this.lockDir, String(user.uid));
  }

  /**
   * Take the account's lock: a file written whole under another name, then linked to the lock's (atomic, and never
   * seen empty). A lock whose holder is gone is reclaimed: 'reclaimed' says the account is to be swept before use.
   */
  private lock(user: ToolUser): 'free' | 'reclaimed' | 'held' {
    const file = this.lockFile(user);
    const mine = path.join(this.lockDir, `.${user.uid}.${randomBytes(6).toString('hex')}`);
    writeFileSync(mine, self, { mode: 0o600, flag: 'wx' });
    try {
      for (let attempt = 0; attempt < 2; attempt++) {
        try {
          linkSync(mine, file);
          return attempt > 0 ? 'reclaimed' : 'free';
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        }
        if (!this.reclaim(file)) return 'held';
      }
      return 'held';
    } finally {
      try {
        unlinkSync(mine);
      } catch {
        // Already gone.
      }
    }
  }

  /**
   * Remove the lock `file` if its holder is gone. Moved aside first, then checked to be the very file found stale:
   * two processes reclaiming at once cannot remove the lock one of them has just taken (a fresh lock moved aside by
   * mistake is put back).
   */
  private reclaim(file: string): boolean {
    const quiet = <T>(fn: () => T): T | null => {
      try {
        return fn();
      } catch {
        return null;
      }
    };
    const found = quiet(() => statSync(file));
    if (!found) return true;
    const owner = quiet(() => readFileSync(file, 'utf8'));
    if (owner === null) return true;
    if (holderAlive(owner)) return false;
    const aside = `${file}.stale-${randomBytes(6).toString('hex')}`;
    try {
      renameSync(file, aside);
    } catch {
      return true;
    }
    const moved = quiet(() => statSync(aside));
    if (moved && moved.ino !== found.ino) {
      quiet(() => linkSync(aside, file));
      quiet(() => unlinkSync(aside));
      return false;
    }
    quiet(() => unlinkSync(aside));
    return true;
  }

  /** A folder only root may enter: no other account can take, fake or remove a lease. */
  private ensureLockDir(): void {
    if (this.lockDirReady) return;
    mkdirSync(this.lockDir, { recursive: true, mode: 0o700 });
    const st = lstatSync(this.lockDir);
    if (!st.isDirectory() || st.uid !== 0 || (st.mode & 0o077) !== 0)
      throw new Error(`${this.lockDir} must be a folder of root's, mode 0700 (the tools' account leases)`);
    this.lockDirReady = true;
  }
}
