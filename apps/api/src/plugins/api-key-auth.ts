import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest, onRequestHookHandler } from 'fastify';
import { AppError } from '../lib/app-error';
import { isWellFormedApiKey } from '../services/api-keys/key-format';
import { keyStateRefusal } from '../services/api-keys/key-admission';
import { KeyCache } from '../services/api-keys/key-cache';
import { UnknownKeyThrottle } from '../services/api-keys/unknown-key-throttle';
import type { Limits } from '../services/limits/index';

export interface ApiKeyAuthOptions {
  /** How long a found key is trusted (default 1000 ms). */
  cacheTtlMs?: number;
  /** How long an unknown key is remembered (default 60 s). */
  negativeCacheTtlMs?: number;
  /** Unknown or invalid keys one client address may present per minute before 429 (default 20). */
  unknownKeysPerMinute?: number;
  /** Where the unknown-key counts live: the limits' Redis when they have one. */
  limits: Limits;
  redisPrefix?: string;
}

export interface ApiKeyAuth {
  cache: KeyCache;
  unknownKeys: UnknownKeyThrottle;
  /** The onRequest hook: `request.apiKeyState.rec` is the presented key's record, or the call is refused. */
  authenticate: onRequestHookHandler;
}

declare module 'fastify' {
  interface FastifyInstance {
    apiKeyAuth: ApiKeyAuth;
  }
}

function presentedKey(request: FastifyRequest, basicAuth: boolean): string | undefined {
  const x = request.headers['x-api-key'];
  if (typeof x === 'string' && x.trim()) return x.trim();
  const auth = request.headers.authorization;
  if (auth) {
    const m = /^Bearer\s+(.+)$/i.exec(auth);
    if (m?.[1]) return m[1].trim();
    // Basic: the key is the password, whatever the user name (Gotenberg clients only know user and password).
    const b = basicAuth ? /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(auth) : null;
    if (b?.[1]) {
      const decoded = Buffer.from(b[1], 'base64').toString('utf8');
      const password = decoded.slice(decoded.indexOf(':') + 1).trim();
      if (decoded.includes(':') && password) return password;
    }
  }
  return undefined;
}

async function plugin(app: FastifyInstance, opts: ApiKeyAuthOptions) {
  const cache = new KeyCache(app.db, { ttlMs: opts.cacheTtlMs, negativeTtlMs: opts.negativeCacheTtlMs });
  const unknownKeys = new UnknownKeyThrottle({
    points: opts.unknownKeysPerMinute,
    redis: opts.limits.redis,
    prefix: opts.redisPrefix ?? 'docflow:rl:',
  });

  const authenticate: onRequestHookHandler = async (request) => {
    const state = request.apiKeyState!;
    const key = presentedKey(request, state.basicAuth);
    if (!key)
      throw new AppError(
        'API_KEY_REQUIRED',
        state.basicAuth
          ? 'API key required: send it as the HTTP Basic password (any user name) or as "x-api-key: <key>"'
          : 'API key required: send it as "x-api-key: <key>" or "Authorization: Bearer <key>"',
      );
    // Over its unknown-key allowance, an address is refused only the keys that are no key: malformed, remembered as
    // unknown (no query for either), or looked up and not found. A valid key is served: the address may be a NAT
    // shared with whoever flooded it.
    let rec = cache.cached(key);
    if (!rec) {
      const retryAfter = await unknownKeys.retryAfter(request.ip);
      if (retryAfter > 0 && !(isWellFormedApiKey(key) && (rec = (await cache.lookup(key)) ?? undefined)))
        throw new AppError(
          'TOO_MANY_ATTEMPTS',
          `Too many unknown or invalid API keys from this address; retry in ${retryAfter} s`,
          { headers: { 'Retry-After': retryAfter }, details: { retryAfter } },
        );
    }
    const notAKey = async (message: string): Promise<never> => {
      await unknownKeys.record(request.ip);
      throw new AppError('INVALID_API_KEY', message);
    };
    if (!isWellFormedApiKey(key)) {
      const jwt = /^[\w-]+\.[\w-]+\.[\w-]+$/.test(key);
      await notAKey(
        jwt
          ? 'A dashboard access token is not an API key: create a key under API Keys and send it as x-api-key'
          : 'Invalid API key',
      );
    }
    rec ??= (await cache.lookup(key)) ?? (await notAKey('Invalid API key'));
    const refused = keyStateRefusal(rec);
    if (refused) throw refused;
    state.rec = rec;
  };

  app.decorate('apiKeyAuth', { cache, unknownKeys, authenticate });
}

/**
 * Who is calling: the API key presented as `x-api-key` or `Authorization: Bearer`, looked up through the key cache,
 * refused when missing, malformed, unknown, disabled, expired or its account deactivated; made-up keys are counted
 * per client address.
 */
export const apiKeyAuth = fp(plugin, { name: 'api-key-auth', dependencies: ['rate-limits'] });
