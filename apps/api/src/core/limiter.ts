import { EngineError } from './errors';

export interface LimiterOptions {
  /** Jobs running at once (external processes, in-process PDF work). */
  concurrency: number;
  /** Jobs allowed to wait; one more is refused with QUEUE_FULL. */
  queueSize: number;
}

export interface LimiterStats {
  running: number;
  queued: number;
  concurrency: number;
  queueSize: number;
}

interface Waiter {
  start: () => void;
  fail: (err: unknown) => void;
}

/**
 * A concurrency cap with a bounded FIFO queue. A full queue refuses at once (QUEUE_FULL, which the API answers with
 * 503 and Retry-After) rather than letting latency grow without bound; a waiter whose request went away leaves the
 * queue.
 */
export class Limiter {
  private running = 0;
  private readonly queue: Waiter[] = [];
  /** Moving average of job duration, for Retry-After. */
  private avgMs = 500;

  constructor(private readonly opts: LimiterOptions) {
    if (!(opts.concurrency >= 1)) throw new RangeError('concurrency must be at least 1');
    if (!(opts.queueSize >= 0)) throw new RangeError('queueSize must be 0 or more');
  }

  stats(): LimiterStats {
    return {
      running: this.running,
      queued: this.queue.length,
      concurrency: this.opts.concurrency,
      queueSize: this.opts.queueSize,
    };
  }

  async run<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted) throw aborted();
    if (this.running >= this.opts.concurrency) await this.wait(signal);
    else this.running++;
    const started = performance.now();
    try {
      return await fn();
    } finally {
      this.avgMs = this.avgMs * 0.8 + (performance.now() - started) * 0.2;
      this.release();
    }
  }

  private wait(signal?: AbortSignal): Promise<void> {
    if (this.queue.length >= this.opts.queueSize) {
      const seconds = Math.max(1, Math.ceil(((this.queue.length / this.opts.concurrency + 1) * this.avgMs) / 1000));
      return Promise.reject(
        new EngineError('QUEUE_FULL', 'The server is busy: too many documents are being processed. Retry shortly.', {
          retryAfter: seconds,
          details: { retryAfterSeconds: seconds },
        }),
      );
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const i = this.queue.indexOf(waiter);
        if (i >= 0) this.queue.splice(i, 1);
        reject(aborted());
      };
      const waiter: Waiter = {
        start: () => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
        fail: reject,
      };
      this.queue.push(waiter);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  private release(): void {
    const next = this.queue.shift();
    // The slot passes straight to the next waiter: `running` stays the same.
    if (next) next.start();
    else this.running--;
  }
}

export const aborted = () => new EngineError('ABORTED', 'The request was cancelled by the client');
