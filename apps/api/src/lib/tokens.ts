import { createHash, randomBytes } from 'node:crypto';

/** A random opaque token (e-mail links, refresh tokens): 256 bits, URL-safe. */
export const randomToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');

/** Tokens are stored only as their SHA-256: a database leak reveals nothing usable. */
export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');
