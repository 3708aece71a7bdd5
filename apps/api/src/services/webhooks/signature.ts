import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Webhook signatures after the Standard Webhooks specification: `webhook-id`, `webhook-timestamp` and
 * `webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`, so a receiver can check that the body,
 * its id and its time all came from us together (a captured delivery replayed under another id or at another time
 * fails), with any Standard Webhooks library.
 *
 * The secret is `whsec_` + the base64 of the key's bytes, and the key is those bytes (what the libraries decode).
 * Secrets made before this were written in base64url; the same bytes are now shown in standard base64, which the
 * libraries require (secrets.ts).
 */
const PREFIX = 'whsec_';

/** The HMAC key of a secret: the bytes after `whsec_`, read in either base64 alphabet. */
export function webhookKey(secret: string): Buffer {
  const encoded = secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret;
  return Buffer.from(encoded, 'base64');
}

/** `whsec_` + standard base64 (padded) of the key: the one spelling every Standard Webhooks library decodes. */
export const canonicalSecret = (secret: string) => `${PREFIX}${webhookKey(secret).toString('base64')}`;

const standardMac = (secret: string, id: string, t: number, body: string | Buffer) =>
  createHmac('sha256', webhookKey(secret)).update(`${id}.${t}.`).update(body).digest();

/** The three Standard Webhooks headers of one delivery. */
export function standardWebhookHeaders(
  secret: string,
  id: string,
  body: string | Buffer,
  at = new Date(),
): { 'webhook-id': string; 'webhook-timestamp': string; 'webhook-signature': string } {
  const t = Math.floor(at.getTime() / 1000);
  return {
    'webhook-id': id,
    'webhook-timestamp': String(t),
    'webhook-signature': `v1,${standardMac(secret, id, t, body).toString('base64')}`,
  };
}

/**
 * What a receiver does, over the raw body's bytes (a Gotenberg webhook's file is binary; the JavaScript library
 * reads a body as UTF-8 text, which fits JSON events only): any v1 signature in the header matches, and the timestamp
 * is recent (default 5 minutes either way).
 */
export function verifyStandardWebhook(
  secret: string,
  body: string | Buffer,
  headers: Record<string, string | string[] | undefined>,
  toleranceS = 300,
  now = new Date(),
): boolean {
  const [id, timestamp, signatures] = ['webhook-id', 'webhook-timestamp', 'webhook-signature'].map((h) =>
    String(headers[h] ?? ''),
  );
  const t = Number(timestamp);
  if (!id || !Number.isInteger(t) || Math.abs(now.getTime() / 1000 - t) > toleranceS) return false;
  const expected = standardMac(secret, id!, t, body);
  return signatures!.split(' ').some((s) => {
    const [version, value] = s.split(',', 2);
    const given = Buffer.from(value ?? '', 'base64');
    return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/**
 * Deprecated (kept for one release beside the Standard Webhooks headers): `X-Webhook-Signature: t=<unix seconds>,
 * v1=<hex HMAC-SHA256 of "<t>.<body>">`, keyed with the secret's text as stored. It does not cover the delivery's id.
 */
const legacyMac = (secret: string, t: number, body: string | Buffer) =>
  createHmac('sha256', secret).update(`${t}.`).update(body).digest();

/** The deprecated `X-Webhook-Signature` value. */
export function signWebhook(secret: string, body: string | Buffer, at = new Date()): string {
  const t = Math.floor(at.getTime() / 1000);
  return `t=${t},v1=${legacyMac(secret, t, body).toString('hex')}`;
}

/** What a receiver of the deprecated header does: the signature matches the body and is recent (5 min either way). */
export function verifyWebhook(
  secret: string,
  body: string | Buffer,
  header: string,
  toleranceS = 300,
  now = new Date(),
): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=', 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || !parts.v1 || Math.abs(now.getTime() / 1000 - t) > toleranceS) return false;
  const expected = legacyMac(secret, t, body);
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
