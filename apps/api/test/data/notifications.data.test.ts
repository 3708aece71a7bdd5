import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../src/data/db';
import { drivers, openTestDatabase } from '../helper';
import { sleep } from '../support/limits';

/**
 * Notifications between nodes (PostgreSQL LISTEN/NOTIFY; PGlite's own): an API node waiting for a worker's job hears
 * its end instead of reading the table again and again.
 */
describe.each(drivers)('notifications on %s', (driver) => {
  let database: Database;
  beforeAll(async () => {
    database = await openTestDatabase(driver);
  }, 60_000);
  afterAll(() => database?.close());

  const heard = async (got: string[], n: number) => {
    for (const until = Date.now() + 5_000; got.length < n && Date.now() < until;) await sleep(10);
    return got;
  };

  it('a listener hears what is told on its channel, in order, and nothing of other channels', async () => {
    const got: string[] = [];
    const other: string[] = [];
    const stop = await database.listen('docflow_test_a', (p) => got.push(p));
    const stopOther = await database.listen('docflow_test_b', (p) => other.push(p));
    await database.notify('docflow_test_a', 'job-1');
    await database.notify('docflow_test_a', 'job-2');
    expect(await heard(got, 2)).toEqual(['job-1', 'job-2']);
    expect(other).toEqual([]);
    await stop();
    await stopOther();
  });

  it('after it stops listening it hears nothing more; two listeners of one channel both hear', async () => {
    const first: string[] = [];
    const second: string[] = [];
    const stopFirst = await database.listen('docflow_test_c', (p) => first.push(p));
    const stopSecond = await database.listen('docflow_test_c', (p) => second.push(p));
    await database.notify('docflow_test_c', 'one');
    expect(await heard(first, 1)).toEqual(['one']);
    expect(await heard(second, 1)).toEqual(['one']);
    await stopFirst();
    await database.notify('docflow_test_c', 'two');
    expect(await heard(second, 2)).toEqual(['one', 'two']);
    await sleep(100);
    expect(first).toEqual(['one']);
    await stopSecond();
  });

  it('a channel name that is not a plain lower-case name is refused', async () => {
    await expect(database.listen('x; drop table users', () => undefined)).rejects.toThrow(
      /invalid notification channel/,
    );
  });
});
