import { describe, expect, it, vi } from 'vitest';
import type { Db } from '../../../src/data/db';
import { KeyCache } from '../../../src/services/api-keys/key-cache';
import type { KeyRecord } from '../../../src/services/api-keys/lookup';
import { generateApiKey } from '../../../src/services/api-keys/key-format';
import { sha256 } from '../../../src/lib/tokens';
import { clientKey } from '../../../src/lib/client-address';

const fakeKey = () => generateApiKey('development').key;
const record = (key: string, o: Partial<KeyRecord> = {}) =>
  ({ keyHash: sha256(key), deleted: false, ...o }) as KeyRecord;

/** A cache over an in-memory "database" of `valid` keys, with the lookup spied on. */
function cacheOver(valid: KeyRecord[], opts: ConstructorParameters<typeof KeyCache>[1] = {}) {
  const byHash = new Map(valid.map((r) => [r.keyHash, r]));
  const find = vi.fn(async (hash: string) => byHash.get(hash) ?? null);
  return { cache: new KeyCache({} as Db, { ...opts, find }), find };
}

describe('KeyCache', () => {
  it('made-up keys cost one lookup each, however often they come back', async () => {
    const { cache, find } = cacheOver([]);
    const keys = Array.from({ length: 50 }, fakeKey);
    for (let round = 0; round < 3; round++) for (const k of keys) expect(await cache.lookup(k)).toBeNull();
    expect(find).toHaveBeenCalledTimes(50);
    expect(cache.queries).toBe(50);
  });

  it('misses cannot evict valid keys: they are bounded in a map of their own', async () => {
    const valid = fakeKey();
    const { cache, find } = cacheOver([record(valid)], { ttlMs: 60_000, maxMisses: 10, maxEntries: 10 });
    expect(await cache.lookup(valid)).not.toBeNull();
    for (let i = 0; i < 1000; i++) await cache.lookup(fakeKey());
    expect(cache.size).toEqual({ found: 1, misses: 10 });
    find.mockClear();
    expect(await cache.lookup(valid)).not.toBeNull();
    expect(cache.cached(valid)).toBeDefined();
    expect(find).not.toHaveBeenCalled();
  });

  it('a deleted key is remembered as a miss; concurrent lookups share one query; failures are not kept', async () => {
    const gone = fakeKey();
    const { cache, find } = cacheOver([record(gone, { deleted: true })]);
    expect(await Promise.all([cache.lookup(gone), cache.lookup(gone), cache.lookup(gone)])).toEqual([null, null, null]);
    expect(await cache.lookup(gone)).toBeNull();
    expect(find).toHaveBeenCalledTimes(1);

    const flaky = fakeKey();
    find.mockRejectedValueOnce(new Error('database away'));
    await expect(cache.lookup(flaky)).rejects.toThrow('database away');
    expect(await cache.lookup(flaky)).toBeNull();
    expect(find).toHaveBeenCalledTimes(3);
  });

  it('a found key is trusted for ttlMs, then read again', async () => {
    const valid = fakeKey();
    const { cache, find } = cacheOver([record(valid)], { ttlMs: 1000 });
    const t0 = Date.now();
    await cache.lookup(valid, t0);
    expect(cache.cached(valid, t0 + 999)).toBeDefined();
    expect(cache.cached(valid, t0 + 5000)).toBeUndefined();
    await cache.lookup(valid, t0 + 5000);
    expect(find).toHaveBeenCalledTimes(2);
  });
});

describe('clientKey', () => {
  it('IPv4 as is, IPv6 by /64, IPv4-mapped IPv6 as IPv4', () => {
    expect(clientKey('203.0.113.7')).toBe('203.0.113.7');
    expect(clientKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(clientKey('2001:db8:1:2:bbbb::9')).toBe(clientKey('2001:db8:1:2:aaaa::1'));
    expect(clientKey('2001:db8:1:3::1')).not.toBe(clientKey('2001:db8:1:2::1'));
    expect(clientKey('::ffff:203.0.113.7')).toBe('203.0.113.7');
  });
});
