import type { Redis } from 'ioredis';
import type { KeyCache } from './key-cache';

type Message = { kind: 'user'; id: string } | { kind: 'key'; hash: string } | { kind: 'all' };

/**
 * Forgetting cached keys on every node. Locally at once; with Redis, the same message goes to the other nodes over
 * pub/sub, so a key disabled, regenerated or deleted, or a user deactivated, is refused on its very next call whichever
 * node takes it, rather than up to a key-cache second later. Without Redis there is one node, and local is all.
 */
export class KeyEviction {
  private readonly channel: string;
  private subscriber: Redis | null = null;
  private readonly origin = Math.random().toString(36).slice(2);

  constructor(
    private readonly cache: KeyCache,
    private readonly redis?: Redis,
    prefix = 'docflow:',
  ) {
    this.channel = `${prefix}key-eviction`;
    if (redis) {
      // A connection of its own (a subscriber can do nothing else) that queues the SUBSCRIBE until it is connected:
      // the limits' client fails fast when Redis is away, which suits counting but would lose the subscription.
      const sub = redis.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null, commandTimeout: undefined });
      sub.on('error', () => undefined); // reconnects on its own; an outage only costs the cache's second
      sub.subscribe(this.channel).catch(() => undefined);
      sub.on('message', (channel, raw) => {
        if (channel !== this.channel) return;
        try {
          const { origin, message } = JSON.parse(raw) as { origin: string; message: Message };
          if (origin !== this.origin) this.apply(message);
        } catch {
          /* not ours */
        }
      });
      this.subscriber = sub;
    }
  }

  evictUser(userId: string): void {
    this.send({ kind: 'user', id: userId });
  }

  evict(keyHash: string): void {
    this.send({ kind: 'key', hash: keyHash });
  }

  /** Empty every node's cache; answers how many entries this node held. */
  clear(): number {
    const n = this.cache.size.found + this.cache.size.misses;
    this.send({ kind: 'all' });
    return n;
  }

  /** Drop the subscription at once (QUIT would wait for a Redis that may be away). */
  close(): void {
    this.subscriber?.disconnect();
    this.subscriber = null;
  }

  private send(message: Message): void {
    this.apply(message);
    this.redis?.publish(this.channel, JSON.stringify({ origin: this.origin, message })).catch(() => undefined);
  }

  private apply(m: Message): void {
    if (m.kind === 'user') this.cache.evictUser(m.id);
    else if (m.kind === 'key') this.cache.evict(m.hash);
    else this.cache.clear();
  }
}
