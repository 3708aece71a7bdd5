/**
 * What a receiver needs to check a DocFlow webhook, shown on the Jobs & Webhooks page (the same scheme as the
 * README's "Jobs and webhooks"): the Standard Webhooks headers, the events, and a check over the raw body.
 */

/** The headers every delivery carries, in the order a receiver reads them; their meaning is in the catalogues. */
export const webhookHeaders = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;
export type TWebhookHeader = (typeof webhookHeaders)[number];

/** `job.<status>` of the job when it ended (services/webhooks/formats.ts). */
export const webhookEvents = ['job.succeeded', 'job.failed', 'job.cancelled'] as const;
export type TWebhookEvent = (typeof webhookEvents)[number];

/** A check with Node's crypto only: code, so it is the same in every language of the interface. */
export const nodeVerificationSample = `import { createHmac, timingSafeEqual } from 'node:crypto';

// secret: whsec_… as shown above; rawBody: the request's bytes, before any JSON parsing
export function verifyDocFlowWebhook(secret, rawBody, headers, toleranceS = 300) {
  const id = headers['webhook-id'];
  const t = Number(headers['webhook-timestamp']);
  if (!id || !Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > toleranceS) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(\`\${id}.\${t}.\`).update(rawBody).digest();
  return String(headers['webhook-signature'] ?? '')
    .split(' ')
    .some((s) => {
      const [version, sig] = s.split(',');
      const given = Buffer.from(sig ?? '', 'base64');
      return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
    });
}`;

/** The same check with the standardwebhooks library (npm, MIT). */
export const libraryVerificationSample = `import { Webhook } from 'standardwebhooks';

const event = new Webhook(process.env.DOCFLOW_WEBHOOK_SECRET).verify(rawBody, req.headers); // throws when it does not match`;
