import type { Db } from '../../data/db';
import { sha256 } from '../../lib/tokens';
import { findKeyByHash, type KeyRecord } from './lookup';

export interface KeyCacheOptions {
  /** How long a found key is trusted (default 1 s). */
  ttlMs?: number;
  /** How long an unknown (or deleted) key is remembered as such (default 60 s). */
  negativeTtlMs?: number;
  /** Found keys held at most (default 50,000). */
  maxEntries?: number;
  /** Unknown keys remembered at most (default 10,000). */
  maxMisses?: number;
  /** The database lookup (default findKeyByHash on `db`). */
  find?: (keyHash: string) => Promise<KeyRecord | null>;
}

/**
 * Key lookups by SHA-256 through an in-process cache in two parts.
 *
 * Found keys are trusted for `ttlMs` (1 s), so disabling, regenerating a key, deactivating a user or renewing a plan
 * takes effect on every node within a second.
 *
 * Misses live in a map of their own, bounded and evicted oldest first, so a flood of made-up keys can neither evict
 * valid keys nor grow memory, and a made-up key presented again costs no query while it is remembered. A miss can be
 * remembered long: a secret cannot become valid later (new and regenerated keys are fresh random values), and a
 * deleted key never authenticates again, so it is remembered as a miss too.
 *
 * Concurrent lookups of one hash share one query; a failed query is not remembered.
 */
export class KeyCache {
  private readonly found = new Map<string, { rec: KeyRecord; until: number }>();
  private readonly misses = new Map<string, number>();
  private readonly pending = new Map<string, Promise<KeyRecord | null>>();
  private readonly ttlMs: number;
  private readonly negativeTtlMs: number;
  private readonly maxEntries: number;
  private readonly maxMisses: number;
  private readonly find: (keyHash: string) => Promise<KeyRecord | null>;
  /** Database lookups made (for tests and metrics). */
  queries = 0;

  constructor(db: Db, opts: KeyCacheOptions = {}) {
    this.ttlMs = opts.ttlMs ?? 1000;
    this.negativeTtlMs = opts.negativeTtlMs ?? 60_000;
    this.maxEntries = opts.maxEntries ?? 50_000;
    this.maxMisses = opts.maxMisses ?? 10_000;
    this.find = opts.find ?? ((hash) => findKeyByHash(db, hash));
  }

  /** The key's record when it is a valid-looking key held in the cache now (no query); undefined otherwise. */
  cached(key: string, now = Date.now()): KeyRecord | undefined {
    const hit = this.found.get(sha256(key));
    return hit && hit.until > now ? hit.rec : undefined;
  }

  /** The key's record, or null for an unknown or deleted key. */
  lookup(key: string, now = Date.now()): Promise<KeyRecord | null> {
    const hash = sha256(key);
    const hit = this.found.get(hash);
    if (hit && hit.until > now) return Promise.resolve(hit.rec);
    const miss = this.misses.get(hash);
    if (miss !== undefined) {
      if (miss > now) return Promise.resolve(null);
      this.misses.delete(hash);
    }
    const inflight = this.pending.get(hash);
    if (inflight) return inflight;
    this.queries++;
    const value = this.find(hash)
      .then((rec) => {
        const live = rec && !rec.deleted ? rec : null;
        if (live) this.remember(this.found, hash, { rec: live, until: Date.now() + this.ttlMs }, this.maxEntries);
        else this.remember(this.misses, hash, Date.now() + this.negativeTtlMs, this.maxMisses);
        return live;
      })
      .finally(() => this.pending.delete(hash));
    this.pending.set(hash, value);
    return value;
  }

  /** Forget a key at once (its owner changed it on this node). */
  evict(keyHash: string): void {
    this.found.delete(keyHash);
    this.misses.delete(keyHash);
  }

  /** Forget every key of a user at once (deactivated or deleted by an admin on this node). */
  evictUser(userId: string): void {
    for (const [hash, hit] of this.found) if (hit.rec.userId === userId) this.found.delete(hash);
  }

  /** Empty the cache; returns how many entries (found and missed keys) it held. */
  clear(): number {
    const n = this.found.size + this.misses.size;
    this.found.clear();
    this.misses.clear();
    return n;
  }

  get size(): { found: number; misses: number } {
    return { found: this.found.size, misses: this.misses.size };
  }

  /** Insert last (Maps iterate in insertion order), dropping the oldest entries beyond `max`. */
  private remember<V>(map: Map<string, V>, hash: string, value: V, max: number): void {
    map.delete(hash);
    map.set(hash, value);
    for (const oldest of map.keys()) {
      if (map.size <= max) break;
      map.delete(oldest);
    }
  }
}
