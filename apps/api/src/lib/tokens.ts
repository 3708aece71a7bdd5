import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

/** A random opaque token (e-mail links, refresh tokens): 256 bits, URL-safe. */
export const randomToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');

/** Tokens are stored only as their SHA-256: a database leak reveals nothing usable. */
export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');

export function safeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}
