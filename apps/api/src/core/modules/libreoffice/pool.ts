import { readFileSync } from 'node:fs';
import { aborted } from '../../limiter';
import { EngineError } from '../../errors';
import { InstanceLost, OfficeInstance, type InstanceOptions } from './instance';
import { lostError } from './errors';
import type { EngineStatus } from '../../interfaces';

export interface PoolOptions extends InstanceOptions {
  size: number;
  /** Instances kept running while idle (default `size`); the others start under load and stop when idle. */
  warm?: number;
  /** An instance beyond `warm` that has had no job for this long is stopped (ms; 0 or unset: never). */
  idleMs?: number;
  /** Replace an instance after this many conversions. */
  maxJobs: number;
  /** Replace an instance whose soffice is larger than this (bytes); 0: never. */
  maxRssBytes: number;
}

interface Slot {
  inst: OfficeInstance | null;
  busy: boolean;
  /** When its last job ended (or its instance was started). */
  lastUsed: number;
}

interface Waiter {
  grant(slot: Slot): void;
  fail(err: unknown): void;
}

export interface PoolStats {
  size: number;
  running: number;
  busy: number;
  waiting: number;
  /** Instances started since the pool was made (first starts, replacements and recycling). */
  started: number;
  /** Instances replaced because they reached MAX_JOBS or MAX_RSS_MB. */
  recycled: number;
  /** Instances beyond the warm ones stopped after the idle time. */
  shrunk: number;
}

/**
 * A fixed number of slots, each holding at most one instance. Nothing starts until `warm()` (the server calls it at
 * start: `warm` instances) or the first job asks for an instance. A job takes a free running instance; when every
 * running one is busy, an instance starts in a free slot and the job waits for whichever is free first (a busy one
 * usually ends long before a soffice starts). Instances beyond `warm` stop after `idleMs` without a job, so an idle
 * server holds one soffice and a busy one all of them. Between jobs an instance past its job count or memory ceiling
 * is retired, and a retired, timed-out or crashed instance is replaced at once so that the next job finds a warm one.
 */
export class OfficePool {
  private readonly slots: Slot[];
  private readonly waiters: Waiter[] = [];
  private readonly all = new Set<OfficeInstance>();
  private closed = false;
  private started = 0;
  private recycled = 0;
  private shrunk = 0;
  private restarts = 0;
  private shrinkTimer: NodeJS.Timeout | null = null;
  private crashes = 0;
  private lastCrash: { at: number; detail: string } | null = null;

  constructor(private readonly opts: PoolOptions) {
    this.slots = Array.from({ length: opts.size }, () => ({ inst: null, busy: false, lastUsed: 0 }));
  }

  private get warmCount(): number {
    return Math.min(this.slots.length, this.opts.warm ?? this.slots.length);
  }

  stats(): PoolStats {
    return {
      size: this.slots.length,
      running: this.slots.filter((s) => s.inst && !s.inst.dead).length,
      busy: this.slots.filter((s) => s.busy).length,
      waiting: this.waiters.length,
      started: this.started,
      recycled: this.recycled,
      shrunk: this.shrunk,
    };
  }

  /**
   * For the system monitor: degraded while a warm instance is gone (its soffice or helper died and the slot has not
   * replaced it yet) or when one crashed in the last five minutes.
   */
  status(now = Date.now()): EngineStatus {
    const st = this.stats();
    const gone = this.slots.filter((s) => s.inst && (s.inst.dead || !pidAlive(s.inst.sofficePid))).length;
    const recentCrash = this.lastCrash && now - this.lastCrash.at < RECENT_CRASH_MS ? this.lastCrash : null;
    const problem = gone
      ? `${gone} LibreOffice instance${gone > 1 ? 's' : ''} gone, replaced on the next conversion`
      : recentCrash
        ? `an instance crashed ${Math.round((now - recentCrash.at) / 1000)} s ago: ${recentCrash.detail.slice(0, 200)}`
        : undefined;
    return {
      state: problem ? 'degraded' : 'ok',
      details: {
        size: st.size,
        running: st.running - gone,
        busy: st.busy,
        idle: Math.max(0, st.running - gone - st.busy),
        waiting: st.waiting,
        warm: this.warmCount,
        started: st.started,
        recycled: st.recycled,
        shrunk: st.shrunk,
        restarts: this.restarts,
        crashes: this.crashes,
        gone,
        lastCrashAt: this.lastCrash ? new Date(this.lastCrash.at).toISOString() : null,
      },
      ...(problem ? { problem } : {}),
    };
  }

  /** The instances alive now (tests read their pids). */
  instances(): OfficeInstance[] {
    return this.slots.flatMap((s) => (s.inst && !s.inst.dead ? [s.inst] : []));
  }

  async run<T>(fn: (inst: OfficeInstance) => Promise<T>, signal?: AbortSignal): Promise<T> {
    const slot = await this.acquire(signal);
    try {
      return await fn(await this.instanceFor(slot));
    } finally {
      await this.release(slot);
    }
  }

  /**
   * Start instances until `warm` of them run, and wait until each is up; rejects when one failed to start (it is
   * tried again by the next job that takes its slot, or the next `warm()`). Jobs are not held: one taking a slot
   * waits for its instance.
   */
  async warm(): Promise<void> {
    if (this.closed) return;
    const missing = this.warmCount - this.slots.filter((s) => s.inst && !s.inst.dead).length;
    const starting = this.slots
      .filter((s) => !s.busy && (!s.inst || s.inst.dead))
      .slice(0, Math.max(0, missing))
      .map((s) => this.spawn(s).ready);
    const failed = (await Promise.allSettled(starting)).find((r) => r.status === 'rejected');
    if (failed) throw new Error(`a LibreOffice instance did not start: ${String(failed.reason)}`);
  }

  /** Kill every process the pool started (whole groups) and remove their profiles. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.shrinkTimer) clearTimeout(this.shrinkTimer);
    for (const w of this.waiters.splice(0)) w.fail(shuttingDown());
    const all = [...this.all];
    for (const inst of all) inst.kill();
    await Promise.all(all.map((i) => i.stopped));
  }

  private acquire(signal?: AbortSignal): Promise<Slot> {
    if (this.closed) return Promise.reject(shuttingDown());
    if (signal?.aborted) return Promise.reject(aborted());
    const running = (s: Slot) => !s.busy && !!s.inst && !s.inst.dead;
    const up = this.slots.find((s) => running(s) && s.inst!.sofficePid !== undefined);
    const free = up ?? this.slots.find(running) ?? this.slots.find((s) => !s.busy);
    // Every running instance is busy: start one here and take whichever is free first. With none busy (nothing will
    // be released), the job takes the slot and waits for its instance, whose failure is then its answer.
    if (free && !up && this.slots.some((s) => s.busy)) {
      if (!free.inst || free.inst.dead) this.spawn(free);
    } else if (free) {
      free.busy = true;
      return Promise.resolve(free);
    }
    return new Promise<Slot>((resolve, reject) => {
      const onAbort = () => {
        const i = this.waiters.indexOf(waiter);
        if (i >= 0) this.waiters.splice(i, 1);
        reject(aborted());
      };
      const waiter: Waiter = {
        grant: (slot) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(slot);
        },
        fail: (err) => {
          signal?.removeEventListener('abort', onAbort);
          reject(err);
        },
      };
      this.waiters.push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** A slot whose instance has just come up goes to the first waiting job. */
  private offer(slot: Slot): void {
    if (slot.busy || this.closed) return;
    const next = this.waiters.shift();
    if (!next) return this.scheduleShrink();
    slot.busy = true;
    next.grant(slot);
  }

  /** Stop instances beyond the warm ones once they have been idle for `idleMs`; checked again while any remain. */
  private scheduleShrink(delay = this.opts.idleMs ?? 0): void {
    const idleMs = this.opts.idleMs ?? 0;
    if (!idleMs || this.shrinkTimer || this.closed) return;
    this.shrinkTimer = setTimeout(() => {
      this.shrinkTimer = null;
      const now = Date.now();
      const alive = this.slots.filter((s) => s.inst && !s.inst.dead);
      let extra = alive.length - this.warmCount;
      // Longest idle first; the next check comes when the next one will have been idle long enough.
      for (const s of alive.filter((x) => !x.busy).sort((a, b) => a.lastUsed - b.lastUsed)) {
        if (extra <= 0) return;
        const left = s.lastUsed + idleMs - now;
        if (left > 0) return this.scheduleShrink(left);
        s.inst!.kill();
        s.inst = null;
        this.shrunk++;
        extra--;
      }
      // Any left are busy: their release schedules the next check.
    }, delay);
    this.shrinkTimer.unref();
  }

  private async instanceFor(slot: Slot): Promise<OfficeInstance> {
    // An idle soffice killed from outside leaves its helper waiting: replace it now rather than fail this job on it.
    if (slot.inst && !slot.inst.dead && slot.inst.sofficePid && !pidAlive(slot.inst.sofficePid)) {
      this.crashes++;
      this.lastCrash = { at: Date.now(), detail: `soffice (pid ${slot.inst.sofficePid}) was gone while idle` };
      slot.inst.kill();
    }
    if (slot.inst && !slot.inst.dead) {
      try {
        await slot.inst.ready;
        if (!slot.inst.dead) return slot.inst;
      } catch {
        // a replacement that failed to start in the background: one more try below
      }
    }
    const inst = this.spawn(slot);
    try {
      await inst.ready;
    } catch (err) {
      throw this.closed
        ? shuttingDown()
        : lostError(
            err instanceof InstanceLost ? err : new InstanceLost('start-failed', String(err)),
            { timeoutMs: 0, planBound: false, memoryLimit: 0 },
            inst.stderr,
          );
    }
    return inst;
  }

  private async release(slot: Slot): Promise<void> {
    const inst = slot.inst;
    const wasWarm = !!inst?.sofficePid;
    if (inst && !inst.dead && !this.closed) {
      const worn =
        inst.jobs >= this.opts.maxJobs || (this.opts.maxRssBytes > 0 && (await inst.rss()) > this.opts.maxRssBytes);
      if (worn) {
        inst.kill();
        this.recycled++;
      }
    }
    // Replace a lost warm instance now rather than on the next job; one that never started waits for a job to ask.
    if (slot.inst?.dead) {
      if (wasWarm && !this.closed) this.spawn(slot);
      else slot.inst = null;
    }
    slot.lastUsed = Date.now();
    const next = this.waiters.shift();
    if (next) next.grant(slot);
    else {
      slot.busy = false;
      this.scheduleShrink();
    }
  }

  /** A slot that still holds an instance (dead, retired or not up) gets a replacement: a restart. */
  private spawn(slot: Slot): OfficeInstance {
    if (slot.inst && !slot.inst.dead) slot.inst.kill();
    const inst = new OfficeInstance(this.opts);
    this.started++;
    if (slot.inst) this.restarts++;
    this.all.add(inst);
    void inst.stopped.then(() => {
      this.all.delete(inst);
      if (inst.crash && !this.closed) {
        this.crashes++;
        this.lastCrash = inst.crash;
      }
    });
    slot.inst = inst;
    slot.lastUsed = Date.now();
    inst.ready.then(
      () => this.offer(slot),
      () => undefined, // a job that takes the slot later starts another
    );
    return inst;
  }
}

const RECENT_CRASH_MS = 5 * 60_000;

/**
 * Whether a process runs: it exists (signal 0 sends nothing) and, where /proc tells, is not a zombie (a killed soffice
 * stays one until its parent reaps it).
 */
function pidAlive(pid: number | undefined): boolean {
  if (!pid) return true; // still starting: not gone
  try {
    process.kill(pid, 0);
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return true; // no /proc: existence is all we know
  }
}

const shuttingDown = () =>
  new EngineError('ENGINE_FAILED', 'The server is shutting down: the document was not converted', {});
