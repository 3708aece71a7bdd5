import { AsyncLocalStorage } from 'node:async_hooks';
import { EngineError } from './errors';

export interface LimiterOptions {
  /** Jobs running at once (external processes, in-process PDF work). */
  concurrency: number;
  /** Jobs allowed to wait, all owners together; one more is refused with QUEUE_FULL. */
  queueSize: number;
}

export interface LimiterStats {
  running: number;
  queued: number;
  concurrency: number;
  queueSize: number;
  /** Owners (users) with work running or waiting. */
  owners: number;
}

/**
 * Whose work a job is: the user behind the API key, and how much of the server their plan buys (1 = Free, 2 = Pro,
 * 4 = Enterprise; see `ownerShare`). Jobs without an owner (health checks, benches, tests of the core) share one
 * unbounded account, as before fair sharing existed.
 */
export interface JobOwner {
  id: string;
  weight: number;
}

const owners = new AsyncLocalStorage<JobOwner>();

/**
 * Run `fn` (a request's handler) as `owner`: every limiter slot it takes, however deep in the engines and whatever
 * signal it passes, is charged to that owner. An async context rather than a parameter because slots are taken in
 * every engine module, far below the request.
 */
export function runAsOwner<T>(owner: JobOwner, fn: () => T): T {
  return owners.run(owner, fn);
}

export const currentOwner = (): JobOwner | undefined => owners.getStore();

const borrowing = new AsyncLocalStorage<true>();

/**
 * Run `fn`, a further piece of work one request split up (an OCR page, a range of pages of text), letting its slots
 * go past the owner's share while a slot is free and nobody waits: on an idle server one user's long document uses
 * every core. What it costs another user who arrives then is the wait for one piece, not for a whole request; a
 * piece that finds the server busy waits within its owner's share as any job does.
 */
export function runBorrowing<T>(fn: () => T): T {
  return borrowing.run(true, fn);
}

/**
 * The most one owner may hold: running slots (a quarter of them at weight 1, half from weight 2: one user can never
 * hold them all once there are two) and waiting places (an eighth of the queue per weight unit up to half of it,
 * never fewer than the concurrency, so that a request which fans out over every core still fits).
 */
export function ownerShare(weight: number, opts: LimiterOptions): { running: number; queued: number } {
  const w = Math.max(1, weight);
  const running = Math.max(1, Math.min(opts.concurrency, Math.ceil((opts.concurrency * Math.min(w, 2)) / 4)));
  const queued = Math.min(
    opts.queueSize,
    Math.max(opts.concurrency, Math.floor((opts.queueSize * Math.min(w, 4)) / 8)),
  );
  return { running, queued };
}

/**
 * Something a job needs besides its slot, from a pool of its own (a tools' account: core/tool-accounts.ts), taken
 * in the same step as the slot: a job waiting for it waits in the queue, counted and ordered as any waiter (no slot
 * held meanwhile, so the holders of the pool always get the slots they need to finish and give back). The gates of
 * one limiter draw from one pool: once one cannot be taken, no other is tried until something is given back.
 */
export interface SlotGate {
  /** The job holds it already (a request's later tools): nothing to take. */
  readonly open: boolean;
  /** Take it now if one is free; false when none is. Synchronous: called while slots are handed out. */
  take(): boolean;
}

/** How often waiters held back by a gate look again (a pool shared with other processes frees without a word). */
const GATE_POLL_MS = 50;

interface Waiter {
  start: () => void;
  gate?: SlotGate;
}

interface Account {
  id: string;
  weight: number;
  /** Unbounded: the jobs without an owner. */
  shared: boolean;
  /** Slots held within the owner's share. */
  running: number;
  /**
   * Slots lent to the owner's split work while nobody waited (runBorrowing): outside its share, so they never keep
   * the owner's own next piece from the share it is due (the request's first worker, or another of its requests).
   */
  lent: number;
  queue: Waiter[];
}

const SHARED = '';

/**
 * A concurrency cap with a bounded queue, shared fairly between owners. Each owner holds at most its share of the
 * running slots and of the queue (past it: FAIR_SHARE_EXCEEDED, answered 429 with Retry-After: their own share is
 * full, others still get in); a freed slot goes round-robin to the next owner with waiting work and room in its
 * share, so one user's flood of slow jobs delays another user's call by at most the jobs already running. A full
 * queue refuses at once (QUEUE_FULL, 503 with Retry-After) rather than letting latency grow without bound; a waiter
 * whose request went away leaves the queue.
 */
export class Limiter {
  private running = 0;
  private queued = 0;
  private readonly accounts = new Map<string, Account>();
  /** Owners with waiting work, in the order they are served; the head is served next. */
  private readonly turns: Account[] = [];
  /** Moving average of job duration, for Retry-After. */
  private avgMs = 500;
  /** Waiters with a gate still to pass: a new job must not take the pool from under them. */
  private gated = 0;
  private gatePoll: NodeJS.Timeout | undefined;

  constructor(private readonly opts: LimiterOptions) {
    if (!(opts.concurrency >= 1)) throw new RangeError('concurrency must be at least 1');
    if (!(opts.queueSize >= 0)) throw new RangeError('queueSize must be 0 or more');
  }

  stats(): LimiterStats {
    return {
      running: this.running,
      queued: this.queued,
      concurrency: this.opts.concurrency,
      queueSize: this.opts.queueSize,
      owners: this.accounts.size,
    };
  }

  /**
   * How many jobs `owner` could start at this moment without waiting: the free slots, bounded by what is left of
   * the owner's share, and none while others wait. Work split across processes is sized by this, not by the free
   * slots alone: pieces past the owner's share would only queue behind each other, each paying its start-up again.
   */
  startableNow(owner: JobOwner | undefined = currentOwner(), opts: { borrow?: boolean } = {}): number {
    if (this.queued > 0) return 0;
    const id = owner ? `u:${owner.id}` : SHARED;
    const holding = this.accounts.get(id)?.running ?? 0;
    const cap = owner && !opts.borrow ? ownerShare(owner.weight, this.opts).running : this.opts.concurrency;
    return Math.max(0, Math.min(this.opts.concurrency - this.running, cap - holding));
  }

  /**
   * Run `fn` in a slot, charged to `owner` (default: the owner of the current request, see runAsOwner); with a
   * `gate`, only once that is passed too (see SlotGate).
   */
  async run<T>(
    fn: () => Promise<T>,
    signal?: AbortSignal,
    owner: JobOwner | undefined = currentOwner(),
    gate?: SlotGate,
  ): Promise<T> {
    if (signal?.aborted) throw aborted();
    const account = this.account(owner);
    const free = this.running < this.opts.concurrency;
    const borrow = borrowing.getStore() === true && this.queued === 0;
    // The gate last: taken only when the slot is too. Behind waiters held by theirs, it is their turn first.
    const passes = () => !gate || gate.open || (this.gated === 0 && gate.take());
    let lent = false;
    if (free && (borrow || account.running < this.runningCap(account)) && passes()) {
      lent = borrow;
      this.take(account, lent);
    } else await this.wait(account, signal, gate);
    const started = performance.now();
    try {
      return await fn();
    } finally {
      this.avgMs = this.avgMs * 0.8 + (performance.now() - started) * 0.2;
      this.release(account, lent);
    }
  }

  private account(owner: JobOwner | undefined): Account {
    const id = owner ? `u:${owner.id}` : SHARED;
    let a = this.accounts.get(id);
    if (!a) {
      a = { id, weight: owner?.weight ?? 1, shared: !owner, running: 0, lent: 0, queue: [] };
      this.accounts.set(id, a);
    }
    // A plan change takes effect on the owner's next job.
    if (owner) a.weight = owner.weight;
    return a;
  }

  private runningCap(a: Account): number {
    return a.shared ? this.opts.concurrency : ownerShare(a.weight, this.opts).running;
  }

  private queueCap(a: Account): number {
    return a.shared ? this.opts.queueSize : ownerShare(a.weight, this.opts).queued;
  }

  private take(a: Account, lent = false): void {
    this.running++;
    if (lent) a.lent++;
    else a.running++;
  }

  private retryAfter(waiting: number, slots: number): number {
    return Math.max(1, Math.ceil(((waiting / slots + 1) * this.avgMs) / 1000));
  }

  /** Look for waiters that can start now (a gate's pool got something back: core/engines.ts tells). */
  wake(): void {
    this.dispatch();
  }

  private wait(a: Account, signal?: AbortSignal, gate?: SlotGate): Promise<void> {
    if (this.queued >= this.opts.queueSize) {
      const seconds = this.retryAfter(this.queued, this.opts.concurrency);
      return Promise.reject(
        new EngineError('QUEUE_FULL', 'The server is busy: too many documents are being processed. Retry shortly.', {
          retryAfter: seconds,
          details: { retryAfterSeconds: seconds },
        }),
      );
    }
    if (a.queue.length >= this.queueCap(a)) {
      const seconds = this.retryAfter(a.queue.length, this.runningCap(a));
      return Promise.reject(
        new EngineError(
          'FAIR_SHARE_EXCEEDED',
          `You already have ${a.running + a.lent} document${a.running + a.lent === 1 ? '' : 's'} processing and ${a.queue.length} waiting, the most your plan's share of the server allows. Retry once some have finished.`,
          {
            retryAfter: seconds,
            details: {
              running: a.running + a.lent,
              queued: a.queue.length,
              maxRunning: this.runningCap(a),
              maxQueued: this.queueCap(a),
              retryAfterSeconds: seconds,
            },
          },
        ),
      );
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const i = a.queue.indexOf(waiter);
        if (i >= 0) {
          a.queue.splice(i, 1);
          this.queued--;
          if (gate) this.gated--;
          this.forget(a);
        }
        reject(aborted());
      };
      const waiter: Waiter = {
        gate,
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      a.queue.push(waiter);
      this.queued++;
      if (gate) this.gated++;
      if (a.queue.length === 1) this.turns.push(a);
      signal?.addEventListener('abort', onAbort, { once: true });
      // A free slot it may have (its gate was closed to it as a newcomer only): served in turn, not later.
      if (gate && this.running < this.opts.concurrency) this.dispatch();
    });
  }

  private release(a: Account, lent: boolean): void {
    this.running--;
    if (lent) a.lent--;
    else a.running--;
    this.dispatch();
    this.forget(a);
  }

  /**
   * Hand free slots to waiting owners, round-robin, skipping owners whose share is full; within an owner, its first
   * waiter whose gate (if any) can be passed. Waiters held back only by their gates are looked at again shortly.
   */
  private dispatch(): void {
    let passes = this.turns.length;
    let gateShut = false;
    let heldByGate = false;
    const passable = (w: Waiter): boolean => {
      if (!w.gate || w.gate.open) return true;
      if (!gateShut && w.gate.take()) return true;
      gateShut = true;
      return false;
    };
    while (this.running < this.opts.concurrency && passes > 0) {
      const a = this.turns.shift()!;
      const i = a.running < this.runningCap(a) ? a.queue.findIndex(passable) : -1;
      if (i < 0) {
        if (a.running < this.runningCap(a)) heldByGate = true;
        this.turns.push(a);
        passes--;
        continue;
      }
      const next = a.queue.splice(i, 1)[0]!;
      this.queued--;
      if (next.gate) this.gated--;
      this.take(a);
      // Served: to the back of the line if it still waits for more.
      if (a.queue.length > 0) this.turns.push(a);
      else this.forget(a);
      passes = this.turns.length;
      next.start();
    }
    if (heldByGate && this.running < this.opts.concurrency && !this.gatePoll) {
      this.gatePoll = setTimeout(() => {
        this.gatePoll = undefined;
        this.dispatch();
      }, GATE_POLL_MS);
      this.gatePoll.unref();
    }
  }

  /** Drop an idle owner's account (and its place in line when nothing of it waits any more). */
  private forget(a: Account): void {
    if (a.queue.length === 0) {
      const i = this.turns.indexOf(a);
      if (i >= 0) this.turns.splice(i, 1);
    }
    if (a.running === 0 && a.lent === 0 && a.queue.length === 0) this.accounts.delete(a.id);
  }
}

export const aborted = () => new EngineError('ABORTED', 'The request was cancelled by the client');
