import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createDeviceCookies, DEVICE_COOKIE_ACCOUNTS } from '../../src/services/device-cookies';

const secret = randomBytes(48);
let clock = Date.UTC(2026, 0, 1);
const devices = createDeviceCookies({ secret, lifetimeDays: 30, now: () => clock });

describe('device cookies', () => {
  it('are valid for the account they were made for only, in any letter case', () => {
    const cookie = devices.renew(undefined, 'ada@example.com');
    const id = devices.deviceFor(cookie, 'Ada@Example.com ');
    expect(id).toMatch(/^[\w-]{22}$/);
    expect(devices.deviceFor(cookie, 'bob@example.com')).toBeUndefined();
    expect(devices.deviceFor(undefined, 'ada@example.com')).toBeUndefined();
    expect(devices.deviceFor('garbage', 'ada@example.com')).toBeUndefined();
  });

  it('cannot be made without the server secret, nor prolonged, and end after their life', () => {
    const cookie = devices.renew(undefined, 'ada@example.com');
    const other = createDeviceCookies({ secret: randomBytes(48), lifetimeDays: 30, now: () => clock });
    expect(other.deviceFor(cookie, 'ada@example.com')).toBeUndefined();
    const [nonce, expiry, mac] = cookie.split('.') as [string, string, string];
    const later = (parseInt(expiry, 36) + 365 * 86_400).toString(36);
    expect(devices.deviceFor(`${nonce}.${later}.${mac}`, 'ada@example.com')).toBeUndefined();
    const start = clock;
    try {
      clock += 29 * 86_400_000;
      expect(devices.deviceFor(cookie, 'ada@example.com')).toBeDefined();
      clock += 2 * 86_400_000;
      expect(devices.deviceFor(cookie, 'ada@example.com')).toBeUndefined();
    } finally {
      clock = start;
    }
  });

  it('one browser keeps a token for each of its last accounts; a sign-in replaces its own with a new device id', () => {
    let cookie = devices.renew(undefined, 'ada@example.com');
    const first = devices.deviceFor(cookie, 'ada@example.com');
    cookie = devices.renew(cookie, 'bob@example.com');
    expect(devices.deviceFor(cookie, 'ada@example.com')).toBe(first);
    cookie = devices.renew(cookie, 'ada@example.com');
    expect(cookie.split('~')).toHaveLength(2);
    expect(devices.deviceFor(cookie, 'ada@example.com')).not.toBe(first);
    expect(devices.deviceFor(cookie, 'bob@example.com')).toBeDefined();
    for (let i = 0; i < DEVICE_COOKIE_ACCOUNTS; i++) cookie = devices.renew(cookie, `user${i}@example.com`);
    expect(cookie.split('~')).toHaveLength(DEVICE_COOKIE_ACCOUNTS);
    expect(devices.deviceFor(cookie, 'user0@example.com')).toBeDefined();
    expect(devices.deviceFor(cookie, 'ada@example.com')).toBeUndefined();
  });
});
