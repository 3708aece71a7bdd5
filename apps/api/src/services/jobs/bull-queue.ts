import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { FastifyBaseLogger } from 'fastify';

const QUEUE = 'docflow-jobs';

/**
 * The job queue of a fleet (REDIS_URL): BullMQ carries job ids from the API nodes that admit them to the workers that
 * run them. The database stays the record of every job (status, progress, result): the queue only says who runs
 * what next, and BullMQ's locks find a worker that died mid-job (its job goes to another).
 */
export class BullJobQueue {
  private readonly queue: Queue;
  private worker: Worker | null = null;
  private readonly connections: Redis[] = [];

  constructor(
    private readonly redisUrl: string,
    private readonly log: FastifyBaseLogger,
    private readonly prefix = 'docflow',
  ) {
    this.queue = new Queue(QUEUE, { connection: this.connection(), prefix });
    this.queue.on('error', (err) => this.log.warn({ err }, 'job queue (Redis) error'));
  }

  private connection(): Redis {
    // Commands wait for Redis to come back rather than fail (BullMQ's requirement for its blocking calls).
    const c = new Redis(this.redisUrl, { maxRetriesPerRequest: null, enableOfflineQueue: true });
    c.on('error', () => undefined); // reported by the queue and the worker
    this.connections.push(c);
    return c;
  }

  /**
   * Queues a job for a worker; false when Redis does not take it in time (the job stays queued in the database and
   * is queued again by the next reconciliation: admission never fails on a Redis outage).
   */
  async add(jobId: string, timeoutMs = 2000): Promise<boolean> {
    const added = this.queue.add('run', { jobId }, { jobId, removeOnComplete: true, removeOnFail: true });
    const late = new Promise<false>((r) => setTimeout(() => r(false), timeoutMs).unref());
    return Promise.race([added.then(() => true), late]).catch((err: unknown) => {
      this.log.warn({ err, jobId }, 'job not queued in Redis: it will be queued again');
      return false;
    });
  }

  /** Whether BullMQ still holds the job (ended jobs are removed from the queue at once). */
  async holds(jobId: string): Promise<boolean> {
    return Boolean(await this.queue.getJob(jobId));
  }

  /** Runs queued jobs on this node: `run` resolves when the job has ended here (its lock is held until then). */
  startWorker(run: (jobId: string) => Promise<void>, opts: { concurrency: number; lockMs: number }): void {
    this.worker = new Worker(QUEUE, async (job) => run(String(job.data.jobId)), {
      connection: this.connection(),
      prefix: this.prefix,
      concurrency: opts.concurrency,
      lockDuration: opts.lockMs,
      stalledInterval: opts.lockMs,
      // The database counts the runs (and fails a job after the last): BullMQ always hands a stalled job back.
      maxStalledCount: 1000,
    });
    this.worker.on('error', (err) => this.log.warn({ err }, 'job worker (Redis) error'));
  }

  /** Takes no more jobs (the running ones go on). */
  async pause(): Promise<void> {
    await Promise.race([this.worker?.pause(true), new Promise((r) => setTimeout(r, 1000).unref())]);
  }

  /** Lets go of Redis, once this node's jobs have ended. Bounded: with Redis gone, BullMQ would wait for it. */
  async close(timeoutMs = 5000): Promise<void> {
    const closed = Promise.all([this.worker?.close(true), this.queue.close()]).catch(() => undefined);
    await Promise.race([closed, new Promise((r) => setTimeout(r, timeoutMs).unref())]);
    for (const c of this.connections) c.disconnect();
  }
}
