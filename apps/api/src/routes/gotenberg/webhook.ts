import type { FastifyRequest } from 'fastify';
import type { GotenbergWebhookFormat, WebhookMethod } from '../../services/jobs/types';
import { AppError } from '../../lib/app-error';
import { readHeaderMap } from './header-map';

/**
 * Gotenberg's webhook headers, read as Gotenberg 8 reads them: with Gotenberg-Webhook-Url the call is a job, answered
 * 204 at once; its file goes to that URL (Gotenberg-Webhook-Method: POST, PUT or PATCH), a failure's `{status,
 * message}` to Gotenberg-Webhook-Error-Url (Gotenberg-Webhook-Error-Method), both with the headers of
 * Gotenberg-Webhook-Extra-Http-Headers. Gotenberg-Webhook-Events-Url (Gotenberg's newer events) is not offered: it is
 * refused by name, as is any webhook header without a webhook URL (Gotenberg would answer synchronously).
 */

export const WEBHOOK_HEADERS = {
  url: 'Gotenberg-Webhook-Url',
  errorUrl: 'Gotenberg-Webhook-Error-Url',
  method: 'Gotenberg-Webhook-Method',
  errorMethod: 'Gotenberg-Webhook-Error-Method',
  extraHeaders: 'Gotenberg-Webhook-Extra-Http-Headers',
  eventsUrl: 'Gotenberg-Webhook-Events-Url',
} as const;

const known = new Set(Object.values(WEBHOOK_HEADERS).map((h) => h.toLowerCase()));
const methods: WebhookMethod[] = ['POST', 'PUT', 'PATCH'];

const invalidHeader = (name: string, message: string) =>
  new AppError('BAD_REQUEST', `Invalid '${name}' header value: ${message}`, { details: { header: name } });

export interface GotenbergWebhook {
  url: string;
  format: GotenbergWebhookFormat;
}

/** The webhook a call asks for, or undefined when it sends none of the headers; a header DocFlow cannot honour: 400. */
export function readWebhook(request: FastifyRequest): GotenbergWebhook | undefined {
  const headers = request.headers;
  const sent = Object.keys(headers).filter((h) => h.startsWith('gotenberg-webhook-'));
  if (!sent.length) return undefined;
  const other = sent.find((h) => !known.has(h));
  if (other)
    throw new AppError('BAD_REQUEST', `Header '${other}' is not a Gotenberg webhook header DocFlow knows`, {
      details: { header: other },
    });
  const value = (name: string) => {
    const v = headers[name.toLowerCase()];
    return (Array.isArray(v) ? v[0] : v)?.trim() || undefined;
  };
  const url = value(WEBHOOK_HEADERS.url);
  const errorUrl = value(WEBHOOK_HEADERS.errorUrl);
  const eventsUrl = value(WEBHOOK_HEADERS.eventsUrl);
  if (!url)
    throw new AppError(
      'BAD_REQUEST',
      `'${WEBHOOK_HEADERS.url}' is required with the other webhook headers (DocFlow never ignores one)`,
      { details: { header: WEBHOOK_HEADERS.url } },
    );
  // Gotenberg's own rule and words: the error URL is optional once events are asked for.
  if (!errorUrl && !eventsUrl)
    throw new AppError(
      'BAD_REQUEST',
      `At least one of '${WEBHOOK_HEADERS.errorUrl}' or '${WEBHOOK_HEADERS.eventsUrl}' headers must be provided`,
      { details: { header: WEBHOOK_HEADERS.errorUrl } },
    );
  const method = (name: string): WebhookMethod => {
    const v = (value(name) ?? 'POST').toUpperCase();
    const found = methods.find((m) => m === v);
    if (!found) throw invalidHeader(name, `expected 'POST', 'PATCH' or 'PUT', but got '${v}'`);
    return found;
  };
  return {
    url,
    format: {
      kind: 'gotenberg',
      method: method(WEBHOOK_HEADERS.method),
      ...(errorUrl ? { errorUrl } : {}),
      ...(eventsUrl ? { eventsUrl } : {}),
      errorMethod: method(WEBHOOK_HEADERS.errorMethod),
      extraHeaders: readExtraHeaders(value(WEBHOOK_HEADERS.extraHeaders)),
      trace: String(request.id),
    },
  };
}

/** The headers sent with both deliveries; the signature's own (webhook-*, X-Webhook-*) are DocFlow's to set. */
function readExtraHeaders(raw: string | undefined): Record<string, string> {
  if (raw === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw invalidHeader(WEBHOOK_HEADERS.extraHeaders, 'expected a JSON object such as {"Authorization": "Bearer …"}');
  }
  const { headers, problems } = readHeaderMap(parsed, (h) => h.startsWith('x-webhook-') || h.startsWith('webhook-'));
  if (problems.length) throw invalidHeader(WEBHOOK_HEADERS.extraHeaders, problems.join('; '));
  return headers;
}
