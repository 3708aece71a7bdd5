import os from 'node:os';
import type { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../data/db';
import type { JobRow, JobStep } from '../../data/schema/index';
import type { JobStore } from './store';
import type { BullJobQueue } from './bull-queue';
import * as repo from './repository';

/**
 * How a job's run ended, as its door tells it (never read back from an HTTP answer): the answer to store, byte for
 * byte the synchronous one, and the error it carries, if any.
 */
export interface JobAnswer {
  statusCode: number;
  contentType: string;
  /** Offered as Content-Disposition when the result is fetched. */
  fileName: string | null;
  /** The endpoint's own answer headers (X-Ocr-Confidence, X-File-Count…), kept with the result. */
  headers: Record<string, string>;
  body: Readable;
  pages: number | null;
  error: { code: string; message: string } | null;
  /**
   * Told once the answer is stored (its size), before the job reads as ended, or once it could not be stored (null):
   * the door meters the call and tidies up.
   */
  settle?(stored: { size: number } | null): Promise<void>;
}

/** What the call being run knows of its job: its cancellation, and where to report progress. */
export interface JobRun {
  readonly jobId: string;
  readonly signal: AbortSignal;
  /** Progress 0-100 of the whole call. */
  progress(percent: number): void;
  /** A batch's per-file outcome, as each file finishes (progress follows from `total`). */
  step(step: JobStep, total: number): void;
}

/** A job the gate refused as it started: it runs nothing. */
export interface JobRefusal {
  refused: { code: string; message: string };
}

/** Runs a job's stored call through its endpoint's door and tells how it ended (or the gate's refusal). */
export type JobExecution = (job: JobRow, run: JobRun) => Promise<JobAnswer | JobRefusal>;

export interface JobRunnerOptions {
  /** Jobs run at once by this node. */
  concurrency: number;
  /** How long an ended job and its files are kept. */
  ttlMs: number;
  /** Runs a job may start (restarts, lost workers) before it is failed. */
  maxAttempts?: number;
  /** A running job whose node has not reported for this long is taken back (default 60 s). */
  stallMs?: number;
  heartbeatMs?: number;
  pollMs?: number;
  sweepMs?: number;
  /** Every running job found at start belongs to a previous life of this process (the embedded database). */
  soleNode?: boolean;
  /** How long `stop` waits for running jobs before handing them back (default 30 s). */
  graceMs?: number;
  /** Told when a run has ended a job (its webhook is due). */
  onEnded?: (jobId: string) => void;
  /** A fleet's queue (REDIS_URL): jobs come from BullMQ instead of being claimed from the table. */
  queue?: BullJobQueue;
}

interface Active {
  controller: AbortController;
  done: Promise<void>;
}

/**
 * Runs queued jobs on this node: claims them from the database (several nodes share the table safely), runs each
 * call through its endpoint (exactly what the synchronous call does), stores the answer, and keeps
 * a heartbeat so that a job whose node died is found and run again, a bounded number of times.
 */
export class JobRunner {
  private readonly active = new Map<string, Active>();
  private readonly timers: NodeJS.Timeout[] = [];
  /** Until start(): an API node (PROCESSING_MODE=api) never starts its runner, so it never takes a job. */
  private stopping = true;
  private filling = false;
  private refill = false;
  private readonly maxAttempts: number;
  private readonly stallMs: number;
  /** Who runs a job, in its row: this host and process. */
  readonly workerId = `${os.hostname()}:${process.pid}`;

  constructor(
    private readonly db: Db,
    private readonly store: JobStore,
    private readonly execute: JobExecution,
    private readonly opts: JobRunnerOptions,
    private readonly log: FastifyBaseLogger,
  ) {
    this.maxAttempts = opts.maxAttempts ?? 3;
    this.stallMs = opts.stallMs ?? 60_000;
  }

  private expiry() {
    return new Date(Date.now() + this.opts.ttlMs);
  }

  async start(): Promise<void> {
    this.stopping = false;
    const queue = this.opts.queue;
    await this.recover(this.opts.soleNode ? new Date(Date.now() + 1000) : undefined);
    const every = (ms: number, fn: () => Promise<unknown>) => {
      const t = setInterval(() => void fn().catch((err) => this.log.warn({ err }, 'job runner task failed')), ms);
      t.unref();
      this.timers.push(t);
    };
    every(this.opts.heartbeatMs ?? 10_000, () => this.beat());
    every(Math.max(queue ? 2_000 : 5_000, this.stallMs / 2), () => this.recover());
    every(this.opts.sweepMs ?? 600_000, () => this.sweep());
    await this.sweep();
    if (queue) {
      queue.startWorker((id) => this.runQueued(id), { concurrency: this.opts.concurrency, lockMs: this.stallMs });
      return;
    }
    every(this.opts.pollMs ?? 2_000, async () => this.kick());
    this.kick();
  }

  /** A job just admitted: to the fleet's queue, or to this node's free slots. */
  async enqueue(jobId: string): Promise<void> {
    if (this.opts.queue) await this.opts.queue.add(jobId);
    else this.kick();
  }

  /** BullMQ's processor: the job runs here, and BullMQ's lock is held until it has ended. */
  private async runQueued(id: string): Promise<void> {
    if (this.stopping) throw new Error('this node is stopping: the job is queued again');
    const job = await repo.claimJob(this.db, this.workerId, id, { takeOver: true });
    if (!job) return; // ended or cancelled meanwhile
    if (job.attempts > this.maxAttempts) {
      await repo.failJob(
        this.db,
        id,
        'JOB_INTERRUPTED',
        `The job was interrupted ${job.attempts - 1} times (its worker was lost) and is not retried again`,
        this.expiry(),
      );
      this.opts.onEnded?.(id);
      return;
    }
    this.launch(job);
    await this.active.get(id)?.done;
  }

  /** Running jobs whose node went quiet go back to the queue (or fail after the last attempt). */
  async recover(since = new Date(Date.now() - this.stallMs)): Promise<void> {
    const { requeued, failed } = await repo.recoverStalled(this.db, since, this.maxAttempts, this.expiry());
    if (requeued.length || failed.length) this.log.warn({ requeued, failed }, 'interrupted jobs taken back');
    for (const id of failed) this.opts.onEnded?.(id);
    const queue = this.opts.queue;
    if (!queue) {
      if (requeued.length) this.kick();
      return;
    }
    // The queue may have lost jobs the table still has queued (Redis restarted without its data): queued again once
    // they have waited a stall period (a long backlog is not looked up in Redis every few seconds).
    for (const id of await repo.queuedBefore(this.db, new Date(Date.now() - this.stallMs)))
      if (!(await queue.holds(id))) await queue.add(id);
  }

  /** Heartbeat of this node's jobs; a job cancelled elsewhere (another API node) is stopped here. */
  private async beat(): Promise<void> {
    const mine = [...this.active.keys()];
    const alive = new Set(await repo.heartbeat(this.db, mine));
    for (const id of mine) if (!alive.has(id)) this.active.get(id)?.controller.abort();
  }

  async sweep(): Promise<number> {
    const ids = await repo.expiredJobs(this.db, new Date());
    for (const id of ids) {
      await this.store.remove(id);
      await repo.deleteJob(this.db, id);
    }
    return ids.length;
  }

  /** Fills this node's free slots with queued jobs. */
  kick(): void {
    if (this.stopping || this.opts.queue) return;
    if (this.filling) {
      this.refill = true;
      return;
    }
    this.filling = true;
    void (async () => {
      try {
        do {
          this.refill = false;
          while (!this.stopping && this.active.size < this.opts.concurrency) {
            const job = await repo.claimJob(this.db, this.workerId);
            if (!job) break;
            this.launch(job);
          }
        } while (this.refill && !this.stopping);
      } catch (err) {
        this.log.warn({ err }, 'could not claim a job');
      } finally {
        this.filling = false;
      }
    })();
  }

  /** Stops this node's run of a job (its tools are killed); the caller has already marked it cancelled. */
  cancel(id: string): boolean {
    const a = this.active.get(id);
    a?.controller.abort();
    return a !== undefined;
  }

  get running(): number {
    return this.active.size;
  }

  private launch(job: JobRow): void {
    const controller = new AbortController();
    const done = this.run(job, controller).finally(() => {
      this.active.delete(job.id);
      this.opts.onEnded?.(job.id);
      this.kick();
    });
    this.active.set(job.id, { controller, done });
  }

  private async run(job: JobRow, controller: AbortController): Promise<void> {
    const steps: JobStep[] = [];
    let last = 0;
    let lastWrite = 0;
    const write = (percent: number, withSteps: boolean) => {
      last = percent;
      const now = Date.now();
      // Bounded writes: a 500-page OCR reports every page, the table hears of it at most every 250 ms.
      if (!withSteps && now - lastWrite < 250) return;
      lastWrite = now;
      void repo.reportProgress(this.db, job.id, percent, withSteps ? [...steps] : undefined).catch(() => undefined);
    };
    const run: JobRun = {
      jobId: job.id,
      signal: controller.signal,
      progress: (p) => write(Math.max(last, Math.min(99, Math.round(p))), false),
      step: (s, total) => {
        steps.push(s);
        write(Math.min(99, Math.round((steps.length / Math.max(1, total)) * 100)), true);
      },
    };
    try {
      const answer = await this.execute(job, run);
      if ('refused' in answer) {
        await repo.cancelRefusedJob(this.db, job.id, answer.refused, this.expiry());
        return;
      }
      // Told before the job reads as ended, so that whoever sees it ended also sees its usage; told once.
      let settled = false;
      const settle = async (stored: { size: number } | null) => {
        if (settled) return;
        settled = true;
        await answer.settle?.(stored).catch((err) => this.log.warn({ err, jobId: job.id }, 'job settling failed'));
      };
      try {
        if (controller.signal.aborted && this.stopping) return; // handed back by stop()
        const size = await this.store.putResult(job.id, answer.body);
        await settle({ size });
        await repo.finishJob(this.db, job.id, {
          status: answer.error ? 'failed' : 'succeeded',
          result: {
            statusCode: answer.statusCode,
            contentType: answer.contentType,
            size,
            fileName: answer.fileName,
            pages: answer.pages,
            headers: answer.headers,
          },
          errorCode: answer.error?.code,
          errorMessage: answer.error?.message,
          steps: steps.length ? steps : undefined,
          expiresAt: this.expiry(),
        });
      } finally {
        await settle(null);
      }
    } catch (err) {
      if (controller.signal.aborted && this.stopping) return;
      this.log.error({ err, jobId: job.id }, 'job failed on the server');
      await repo
        .failJob(this.db, job.id, 'INTERNAL_ERROR', 'The job failed on the server', this.expiry())
        .catch(() => undefined);
    }
  }

  /**
   * Stops taking jobs; waits up to the grace period for the running ones, then stops them and hands them back to
   * the queue (another node, or this one after a restart, runs them again).
   */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const t of this.timers) clearInterval(t);
    // The queue's worker takes nothing more from now on; it lets go of Redis once the running jobs have ended.
    await this.opts.queue?.pause();
    const running = [...this.active.values()].map((a) => a.done);
    const grace = new Promise<'late'>((r) => setTimeout(() => r('late'), this.opts.graceMs ?? 30_000).unref());
    if ((await Promise.race([Promise.all(running), grace])) === 'late') {
      const left = [...this.active.keys()];
      for (const a of this.active.values()) a.controller.abort();
      await Promise.allSettled([...this.active.values()].map((a) => a.done));
      await repo.handBack(this.db, left).catch(() => undefined);
    }
    await this.opts.queue?.close();
  }
}
