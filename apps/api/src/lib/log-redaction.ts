import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import { stdSerializers } from 'pino';

/**
 * What the server's log must never hold: the secrets that ride in URLs (a password-reset or verification link's
 * token, a signed link, a webhook URL's key) and in headers (API keys, bearer tokens, cookies). A log line is read by
 * more people and kept longer than the database, and a logged reset token works for whoever reads it.
 */
export const REDACTED = '[REDACTED]';

/** Query parameters whose value is a secret: named like token, key, secret, password, code, signature, auth... */
const SECRET_NAME = /token|key|secret|passw|pwd|code|sig|auth|credential|session|cookie|otp/i;

/** `name=value` inside a query string (after `?`, `&` or `;`), anywhere in a text. */
const QUERY_PAIR = /([?&;])([^=&#?;\s"'<>]+)=([^&#;\s"'<>]*)/g;

/** Every secret-named query parameter's value in `text` (a URL, or a message naming one) replaced by [REDACTED]. */
export function redactSecretsInText(text: string): string {
  if (!text.includes('=')) return text;
  return text.replace(QUERY_PAIR, (whole, sep: string, name: string, value: string) =>
    value && SECRET_NAME.test(safeDecode(name)) ? `${sep}${name}=${REDACTED}` : whole,
  );
}

const safeDecode = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/** Headers and fields that carry a secret whole, wherever a log call puts them (one level of nesting deep). */
const SECRET_FIELDS = [
  'authorization',
  '"x-api-key"',
  'cookie',
  '"set-cookie"',
  'password',
  'newPassword',
  'currentPassword',
  'token',
  'refreshToken',
  'accessToken',
  'apiKey',
  'secret',
];
const redactPaths = SECRET_FIELDS.flatMap((f) => {
  const key = f.startsWith('"') ? `[${f}]` : `.${f}`;
  const top = f.startsWith('"') ? `[${f}]` : f;
  return [top, `*${key}`, `req.headers${key}`, `res.headers${key}`, `headers${key}`, `*.headers${key}`];
});

/** A string field of a log line, scrubbed; anything else as it is. */
const scrub = (v: unknown) => (typeof v === 'string' ? redactSecretsInText(v) : v);

/**
 * The Fastify logger's options, for every log line the server writes: request URLs without their secret query
 * values, no secret header or field, errors' messages and stacks and every top-level string scrubbed the same way.
 */
export function loggerOptions(
  level: string,
  stream?: NodeJS.WritableStream,
): Exclude<FastifyServerOptions['logger'], boolean | undefined> {
  return {
    level,
    ...(stream ? { stream } : {}),
    redact: { paths: redactPaths, censor: REDACTED },
    serializers: {
      req: (request: FastifyRequest) => ({
        method: request.method,
        url: redactSecretsInText(request.url),
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
      err: (err: Error) => {
        const out = stdSerializers.err(err);
        return { ...out, message: redactSecretsInText(out.message), stack: redactSecretsInText(out.stack ?? '') };
      },
    },
    formatters: {
      log: (object) => Object.fromEntries(Object.entries(object).map(([k, v]) => [k, scrub(v)])),
    },
    hooks: {
      logMethod(args, method) {
        method.apply(this, args.map((a) => scrub(a)) as Parameters<typeof method>);
      },
    },
  };
}
