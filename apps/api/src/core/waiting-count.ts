/**
 * The jobs an engine has taken but not yet started (waiting for a processing slot or a pooled process): Gotenberg's
 * "requests queue size" of its Chromium and LibreOffice modules, read by the metrics.
 */
export interface WaitingCount {
  readonly count: number;
  /** Run `work` through `admit` (a limiter, a pool), counted as waiting until `admit` starts it or fails. */
  through<T>(admit: (work: () => Promise<T>) => Promise<T>, work: () => Promise<T>): Promise<T>;
}

export function waitingCount(): WaitingCount {
  let count = 0;
  return {
    get count() {
      return count;
    },
    async through(admit, work) {
      count++;
      let waiting = true;
      const started = () => {
        if (waiting) count--;
        waiting = false;
      };
      try {
        return await admit(() => {
          started();
          return work();
        });
      } finally {
        started();
      }
    },
  };
}
