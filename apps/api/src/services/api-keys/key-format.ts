import { randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { API_KEY_PREFIX_LENGTH, type TApiKeyEnvironment } from '@docflow/contracts';

/**
 * Key format: `dfk_live_` (production) or `dfk_test_` (development, staging), 32 random base62 characters (~190 bits),
 * then a 6-character checksum: the CRC-32 of everything before it, in base62. A mistyped or made-up key fails the
 * checksum and is refused without a database lookup.
 */
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const KEY_RE = /^dfk_(live|test)_[0-9A-Za-z]{38}$/;

function base62(n: number, width: number): string {
  let out = '';
  for (let i = 0; i < width; i++) {
    out = ALPHABET[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 248 && out.length < length) out += ALPHABET[b % 62]; // 248 = 4 * 62: no modulo bias
    }
  }
  return out;
}

const checksum = (body: string) => base62(crc32(body), CHECKSUM_LENGTH);

export function keyKind(environment: TApiKeyEnvironment): 'live' | 'test' {
  return environment === 'production' ? 'live' : 'test';
}

export function generateApiKey(environment: TApiKeyEnvironment): { key: string; prefix: string } {
  const body = `dfk_${keyKind(environment)}_${randomBase62(RANDOM_LENGTH)}`;
  const key = body + checksum(body);
  return { key, prefix: key.slice(0, API_KEY_PREFIX_LENGTH) };
}

/** Shape and checksum of a presented key: cheap, no I/O. */
export function isWellFormedApiKey(key: string): boolean {
  if (!KEY_RE.test(key)) return false;
  const body = key.slice(0, -CHECKSUM_LENGTH);
  return checksum(body) === key.slice(-CHECKSUM_LENGTH);
}
