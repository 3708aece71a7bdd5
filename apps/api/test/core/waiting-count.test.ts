import { describe, expect, it } from 'vitest';
import { waitingCount } from '../../src/core/waiting-count';

/** The count behind Gotenberg's requests_queue_size gauges: jobs taken by an engine and not yet started. */
describe('waitingCount', () => {
  it('counts a job from its arrival until its slot starts it, and one refused by the slot', async () => {
    const waiting = waitingCount();
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const admit = async <T>(work: () => Promise<T>) => {
      await gate;
      return work();
    };
    const seen: number[] = [];
    const jobs = [1, 2].map((n) => waiting.through(admit, async () => (seen.push(waiting.count), n)));
    expect(waiting.count).toBe(2);
    open();
    expect(await Promise.all(jobs)).toEqual([1, 2]);
    // The first started while the second still waited.
    expect(seen).toEqual([1, 0]);
    expect(waiting.count).toBe(0);
    const refused = waiting.through(
      async () => {
        throw new Error('queue full');
      },
      async () => 0,
    );
    await expect(refused).rejects.toThrow('queue full');
    expect(waiting.count).toBe(0);
  });
});
