import { createHmac, timingSafeEqual } from 'node:crypto';

/** HMAC-SHA256 of "<t>.<body>": the body's bytes as sent (a JSON event, or a Gotenberg webhook's file). */
const mac = (secret: string, t: number, body: string | Buffer) =>
  createHmac('sha256', secret).update(`${t}.`).update(body).digest();

/** `X-Webhook-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">` (the README shows how to check it). */
export function signWebhook(secret: string, body: string | Buffer, at = new Date()): string {
  const t = Math.floor(at.getTime() / 1000);
  return `t=${t},v1=${mac(secret, t, body).toString('hex')}`;
}

/** What a receiver does: the signature matches the body and is recent (default 5 minutes either way). */
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
  const expected = mac(secret, t, body);
  const given = Buffer.from(parts.v1, 'hex');
  return given.length === expected.length && timingSafeEqual(given, expected);
}
