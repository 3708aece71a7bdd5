import { randomInt, randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { UnknownKeyThrottle } from '../../../src/services/api-keys/unknown-key-throttle';
import { sleep } from '../../support/limits';

const REDIS = process.env.TEST_REDIS_URL;
const modes: Array<'memory' | 'redis'> = REDIS ? ['memory', 'redis'] : ['memory'];

describe.each(modes)('UnknownKeyThrottle (%s)', (mode) => {
  const prefix = `docflow:test:${randomUUID()}:`;
  const redis = mode === 'redis' ? new Redis(REDIS!, { enableOfflineQueue: false }) : undefined;
  afterAll(async () => {
    if (!redis) return;
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  it('blocks an address past `points` unknown keys for the rest of the window; others are not affected', async () => {
    for (let i = 0; i < 100 && redis && redis.status !== 'ready'; i++) await sleep(20);
    const throttle = new UnknownKeyThrottle({ points: 3, windowSeconds: 30, redis, prefix });
    const ip = `192.0.2.${randomInt(1, 254)}`;
    for (let i = 0; i < 3; i++) {
      expect(await throttle.retryAfter(ip)).toBe(0);
      await throttle.record(ip);
    }
    const retry = await throttle.retryAfter(ip);
    expect(retry).toBeGreaterThan(25);
    expect(retry).toBeLessThanOrEqual(30);
    expect(await throttle.retryAfter('2001:db8::1')).toBe(0);
    for (let i = 0; i < 3; i++) await throttle.record('2001:db8::1');
    // The same /64 is one client.
    expect(await throttle.retryAfter('2001:db8::ffff:2')).toBeGreaterThan(0);
    if (redis) expect(await redis.keys(`${prefix}*`)).toHaveLength(2);
  });
});
