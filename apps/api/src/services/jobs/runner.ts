import os from 'node:os';
import { Transform, type Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../data/db';
import type { JobRow, JobStep } from '../../data/schema/index';
import type { JobStore } from './store';
import type { BullJobQueue } from './bull-queue';
import * as repo from './repository';

/** What a job's call answered when it was sent again; its body is read as it is produced, never held whole. */
export interface ReplayAnswer {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: Readable;
  pages: number | null;
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
export interface ReplayRefusal {
  refused: { code: string; message: string };
}

/** Sends a job's stored call through the server's own routes and gives back the answer (or the gate's refusal). */
export type Replay = (job: JobRow, run: JobRun) => Promise<ReplayAnswer | ReplayRefusal>;

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

/** An error answer is a small JSON body: its first bytes are kept as it streams to the store, to read its code. */
const ERROR_HEAD = 64 * 1024;

const keepHead = (into: Buffer[]) =>
  new Transform({
    transform(chunk: Buffer, _enc, done) {
      const held = into.reduce((n, b) => n + b.length, 0);
      if (held < ERROR_HEAD) into.push(chunk.subarray(0, ERROR_HEAD - held));
      done(null, chunk);
    },
  });

const header = (h: ReplayAnswer['headers'], name: string) => {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v === undefined ? undefined : String(v);
};

/**
 * Set on a replayed call's plain-text error (a Gotenberg route's): the code its JSON error would carry, so that the
 * job records what went wrong and the message as it was answered.
 */
export const ERROR_CODE_HEADER = 'x-docflow-error-code';

/** What an error answer says went wrong: from its JSON body, or a plain-text one's code header and text. */
const errorOf = (head: Buffer, headers: ReplayAnswer['headers']): { code: string; message: string } => {
  try {
    const j = JSON.parse(head.toString('utf8')) as { code?: unknown; error?: unknown };
    if (typeof j.code === 'string') return { code: j.code, message: typeof j.error === 'string' ? j.error : '' };
  } catch {
    // not a JSON error answer
  }
  const code = header(headers, ERROR_CODE_HEADER);
  if (code) return { code, message: head.toString('utf8').slice(0, 4000) };
  return { code: 'INTERNAL_ERROR', message: 'The job failed' };
};

/**
 * What the route said of its answer in its own headers (X-Ocr-Confidence, X-File-Count…): kept with the result, so
 * the stored answer is the synchronous one. Not the replay's request id, time or rate-limit figures (the call that
 * gives the answer back has its own).
 */
function ownHeaders(h: ReplayAnswer['headers']): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of Object.keys(h)) {
    if (!/^x-/i.test(name) || /^x-(request-id|ratelimit-|processing-time-ms$|docflow-)/i.test(name)) continue;
    const v = header(h, name);
    if (v !== undefined) kept[name.toLowerCase()] = v;
  }
  return kept;
}

/** The file name offered by a Content-Disposition header (the UTF-8 form when present). */
export function dispositionName(value: string | undefined): string | null {
  if (!value) return null;
  const star = /filename\*=UTF-8''([^;]+)/i.exec(value);
  if (star?.[1]) return decodeURIComponent(star[1]);
  return /filename="([^"]*)"/i.exec(value)?.[1] ?? null;
}

/**
 * Runs queued jobs on this node: claims them from the database (several nodes share the table safely), sends each
 * call again through the routes (so a job does exactly what the synchronous call does), stores the answer, and keeps
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
    private readonly replay: Replay,
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
      const answer = await this.replay(job, run);
      if ('refused' in answer) {
        await repo.cancelRefusedJob(this.db, job.id, answer.refused, this.expiry());
        return;
      }
      if (controller.signal.aborted && this.stopping) return; // handed back by stop()
      const ok = answer.statusCode < 400;
      const head: Buffer[] = [];
      const size = await this.store.putResult(job.id, ok ? answer.body : answer.body.pipe(keepHead(head)));
      const err = ok ? null : errorOf(Buffer.concat(head), answer.headers);
      await repo.finishJob(this.db, job.id, {
        status: ok ? 'succeeded' : 'failed',
        result: {
          statusCode: answer.statusCode,
          contentType: header(answer.headers, 'content-type') ?? 'application/octet-stream',
          size,
          fileName: dispositionName(header(answer.headers, 'content-disposition')),
          pages: answer.pages,
          headers: ownHeaders(answer.headers),
        },
        errorCode: err?.code,
        errorMessage: err?.message,
        steps: steps.length ? steps : undefined,
        expiresAt: this.expiry(),
      });
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
