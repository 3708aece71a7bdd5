/**
 * The API's own traffic over a sliding window (default 5 minutes), for the monitor's response time and error rate.
 * A ring of per-second buckets: constant memory whatever the traffic, O(1) per response.
 */
export class HttpWindow {
  private readonly buckets: Array<{ second: number; n: number; errors: number; ms: number; slow: number[] }>;

  constructor(readonly windowSeconds = 300) {
    this.buckets = Array.from({ length: windowSeconds }, () => ({ second: -1, n: 0, errors: 0, ms: 0, slow: [] }));
  }

  record(ms: number, status: number, now = Date.now()): void {
    const second = Math.floor(now / 1000);
    const b = this.buckets[second % this.windowSeconds]!;
    if (b.second !== second) Object.assign(b, { second, n: 0, errors: 0, ms: 0, slow: [] });
    b.n++;
    b.ms += ms;
    if (status >= 500) b.errors++;
    // Keep a bounded sample per second for the p95 (the slowest matter, so keep the largest).
    if (b.slow.length < 32) b.slow.push(ms);
    else {
      const i = b.slow.indexOf(Math.min(...b.slow));
      if (ms > b.slow[i]!) b.slow[i] = ms;
    }
  }

  stats(now = Date.now()) {
    const from = Math.floor(now / 1000) - this.windowSeconds + 1;
    let n = 0;
    let errors = 0;
    let ms = 0;
    const sample: number[] = [];
    for (const b of this.buckets) {
      if (b.second < from) continue;
      n += b.n;
      errors += b.errors;
      ms += b.ms;
      sample.push(...b.slow);
    }
    sample.sort((a, b) => a - b);
    const round = (x: number) => Math.round(x * 10) / 10;
    return {
      requests: n,
      errors_5xx: errors,
      avg_response_time_ms: n ? round(ms / n) : 0,
      p95_response_time_ms: sample.length
        ? round(sample[Math.min(sample.length - 1, Math.floor(sample.length * 0.95))]!)
        : 0,
      error_rate_percent: n ? round((errors / n) * 100) : 0,
      window_seconds: this.windowSeconds,
    };
  }
}
