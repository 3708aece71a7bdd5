import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Device cookies (OWASP, "Slow Down Online Guessing Attacks with Device Cookies"): after a right password the browser
 * keeps a token that says "this device has signed in to this account before". A later sign-in that presents it is
 * judged by that device's own failures, so an attacker behind the same NAT, or anyone who knows the e-mail, cannot
 * lock the account's known devices out; clients without one keep the address and account counts.
 *
 * A token is `<nonce>.<expiry>.<mac>`: the MAC (HMAC-SHA256 under a key derived from the server's secret) covers the
 * account's e-mail, the nonce and the expiry, so it is only valid for the account it was made for and cannot be
 * forged or prolonged. It names no account: verifying needs the e-mail the sign-in gives. One browser keeps the
 * tokens of its last few accounts in one cookie, `~`-separated, newest first.
 */
export interface DeviceCookies {
  /** The device id (the token's nonce) when `cookie` holds a valid, unexpired token made for `email`. */
  deviceFor(cookie: string | undefined, email: string): string | undefined;
  /** The cookie's next value after a right password for `email`: a fresh token first, its other accounts' kept. */
  renew(cookie: string | undefined, email: string): string;
  /** How long the browser keeps the cookie (and each token stays valid). */
  readonly maxAgeSeconds: number;
}

/** Accounts one browser keeps a token for (a shared computer, a user with two accounts). */
export const DEVICE_COOKIE_ACCOUNTS = 5;
const SEPARATOR = '~';
const TOKEN = /^([\w-]{22})\.([0-9a-z]{1,10})\.([\w-]{43})$/;

const accountOf = (email: string) => email.trim().toLowerCase();

export function createDeviceCookies(opts: {
  secret: Uint8Array;
  lifetimeDays: number;
  now?: () => number;
}): DeviceCookies {
  // A key of its own, so that no other MAC made with the server's secret (an access token's) can pass for a device token.
  const key = createHmac('sha256', opts.secret).update('docflow device cookie v1').digest();
  const now = opts.now ?? Date.now;
  const maxAgeSeconds = opts.lifetimeDays * 86_400;

  const mac = (email: string, nonce: string, expiry: string) =>
    createHmac('sha256', key)
      .update(`${accountOf(email)}\n${nonce}\n${expiry}`)
      .digest();

  const tokens = (cookie: string | undefined) =>
    (cookie ?? '')
      .split(SEPARATOR)
      .slice(0, DEVICE_COOKIE_ACCOUNTS)
      .map((token) => ({ token, parts: TOKEN.exec(token) }))
      .filter((t): t is { token: string; parts: RegExpExecArray } => t.parts !== null)
      .filter(({ parts }) => parseInt(parts[2]!, 36) * 1000 > now());

  const isFor = (parts: RegExpExecArray, email: string) => {
    const [, nonce, expiry, given] = parts;
    return timingSafeEqual(Buffer.from(given!, 'base64url'), mac(email, nonce!, expiry!));
  };

  return {
    maxAgeSeconds,
    deviceFor(cookie, email) {
      return tokens(cookie).find(({ parts }) => isFor(parts, email))?.parts[1];
    },
    renew(cookie, email) {
      const nonce = randomBytes(16).toString('base64url');
      const expiry = Math.floor(now() / 1000 + maxAgeSeconds).toString(36);
      const fresh = `${nonce}.${expiry}.${mac(email, nonce, expiry).toString('base64url')}`;
      // This account's old token gives way to the fresh one (a new device id with a count of its own).
      const others = tokens(cookie)
        .filter(({ parts }) => !isFor(parts, email))
        .map((t) => t.token);
      return [fresh, ...others].slice(0, DEVICE_COOKIE_ACCOUNTS).join(SEPARATOR);
    },
  };
}
