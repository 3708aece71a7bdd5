import { randomBytes } from 'node:crypto';
import { existsSync, linkSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { EnginesOptions } from '../core/engines';
import { lockDownTree, privateDir } from '../lib/private-files';
import { ConfigError } from './config-error';
import { loadEngineConfig } from './engines';
import { parseAllowList } from '../core/net/allow-list';
import type { OutboundRules } from '../core/net/public-address';
import { loadSignatureConfig, type SignatureConfig } from './signatures';
import { parseStorageUrl, type StorageConfig } from './storage';
import { loadBillingConfig, type BillingConfig } from './billing';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/**
 * Which proxies' X-Forwarded-For to believe: `false` (none), a number of hops (the proxies in front of the server),
 * or their addresses and ranges. Never "every hop": the first entries of X-Forwarded-For are the client's to write,
 * and every per-address quota, the login throttle and the audit log would count what a client chose.
 */
const trustProxy = z
  .string()
  .default('false')
  .transform((raw, ctx): false | number | string => {
    const v = raw.trim();
    if (['', 'false', '0', 'no'].includes(v)) return false;
    if (/^\d+$/.test(v)) return Number(v);
    if (['true', 'yes'].includes(v)) {
      ctx.addIssue({
        code: 'custom',
        message:
          '"true" would trust every hop (X-Forwarded-For is then client-chosen): give the number of proxies in front of DocFlow (e.g. 1) or their addresses (e.g. 10.0.0.0/8,127.0.0.1)',
      });
      return z.NEVER;
    }
    const entries = v.split(',').map((e) => e.trim());
    const bad = entries.filter((e) => !/^[0-9a-fA-F.:]+(\/\d{1,3})?$/.test(e));
    if (bad.length) {
      ctx.addIssue({ code: 'custom', message: `not an address or range: ${bad.join(', ')}` });
      return z.NEVER;
    }
    return entries.join(',');
  });

/**
 * Every environment variable DocFlow reads. Parsed once at boot; a wrong value stops the start with a message
 * naming the variable. Keep README.md's configuration table in step with this schema.
 */
export const ZEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  PUBLIC_URL: z.url().optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  REDIS_URL: z
    .string()
    .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
    .optional(),
  /**
   * With REDIS_URL: calls of one key a node may count in Redis ahead and then decide alone (services/limits/
   * leased-limits.ts); 1: every call goes to Redis.
   */
  REDIS_LIMIT_LEASE: z.coerce.number().int().min(1).max(1000).default(32),
  SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  MAIL_FROM: z.string().default('DocFlow <no-reply@docflow.local>'),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  ACCESS_TOKEN_TTL: z.coerce.number().int().min(60).max(86400).default(900),
  REFRESH_TOKEN_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(7),
  REMEMBER_ME_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  SESSION_MAX_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  REFRESH_REUSE_GRACE_SECONDS: z.coerce.number().int().min(0).max(60).default(10),
  EMAIL_VERIFICATION: bool.default(true),
  ADMIN_EMAIL: z.email().optional(),
  ADMIN_PASSWORD: z.string().min(8, 'must be at least 8 characters').optional(),
  ADMIN_NAME: z.string().default('Owner'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: trustProxy,
  BODY_LIMIT: z.coerce.number().int().min(1024).default(1_048_576),
  WEB_DIST: z.string().optional(),
  /** Where per-request workspaces are created (always removed afterwards); default: the system temp dir. */
  DOCFLOW_TMP_DIR: z.string().optional(),
  LOGIN_MAX_FAILURES: z.coerce.number().int().min(1).default(5),
  LOGIN_LOCK_SECONDS: z.coerce.number().int().min(1).default(900),
  LOGIN_DAILY_IP_CAP: z.coerce.number().int().min(1).default(100),
  LOGIN_ACCOUNT_HOURLY_CAP: z.coerce.number().int().min(1).default(50),
  /** Life of the device cookie a right password leaves in the browser (services/device-cookies.ts). */
  LOGIN_DEVICE_COOKIE_DAYS: z.coerce.number().int().min(1).max(3650).default(180),
  /** Accounts one IP may create per hour. */
  REGISTER_MAX_PER_IP_HOUR: z.coerce.number().int().min(1).default(10),
  /** Password-reset and verification mails one IP may ask for per hour. */
  MAIL_REQUESTS_MAX_PER_IP_HOUR: z.coerce.number().int().min(1).default(20),
  /** Bearer token for GET /metrics from other hosts; without it only loopback clients may read the metrics. */
  /**
   * Intranet hosts and address ranges the server may fetch from on a client's behalf (URL conversion, Gotenberg's
   * downloadFrom, webhooks, time-stamp authorities), beside the public internet: "intranet.example, *.corp.example,
   * 10.20.0.0/16, fd00::/8". Empty (the default): public addresses only.
   */
  OUTBOUND_ALLOW_LIST: z
    .string()
    .default('')
    .transform((raw, ctx) => {
      try {
        return parseAllowList(raw);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
        return z.NEVER;
      }
    }),
  /**
   * Gotenberg's --api-disable-download-from: the /gotenberg routes then refuse the `downloadFrom` field by name, so
   * that the server never fetches a file on a client's behalf through it.
   */
  GOTENBERG_DISABLE_DOWNLOAD_FROM: z
    .enum(['true', 'false', '1', '0'])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  /** url-to-pdf may reach private, loopback and link-local addresses (an intranet deployment); never on the internet. */
  URL_TO_PDF_ALLOW_PRIVATE: z
    .enum(['true', 'false', '1', '0'])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  /**
   * RFC 3161 time-stamp authority for signatures (POST /pdf/sign with timestamp=true): reached under the same address
   * rules as url-to-pdf (URL_TO_PDF_ALLOW_PRIVATE). Unset: signing with a time-stamp is refused.
   */
  SIGN_TSA_URL: z.url({ protocol: /^https?$/ }).optional(),
  /**
   * The time-stamp authority may be on a private or loopback address (the operator's own TSA on the intranet),
   * without opening url-to-pdf to them; unset: as URL_TO_PDF_ALLOW_PRIVATE.
   */
  SIGN_TSA_ALLOW_PRIVATE: z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .transform((v) => (v === undefined ? undefined : v === 'true' || v === '1')),
  /** PEM bundle of the certificates POST /pdf/verify-signatures trusts; unset: signers are reported as not trusted. */
  SIGN_TRUST_ANCHORS: z.string().optional(),
  /**
   * What this process does: `all` (HTTP and jobs, the `npm start` default), `api` (HTTP only: its jobs are run by
   * worker processes on the same database), `worker` (runs jobs and sends webhooks, takes no HTTP: `npm run worker`).
   */
  PROCESSING_MODE: z.enum(['all', 'api', 'worker']).default('all'),
  /**
   * Start the engines kept warm (LibreOffice's pool, the browser) when the server starts, in the background: /ready
   * waits for them and the first conversion finds them up. `false`: each starts at its first job.
   */
  WARM_ENGINES: bool.default(true),
  /** Jobs (async=true) one node runs at once. */
  JOB_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  /** A running job whose node has not reported for this long is taken over by another (its node died). */
  JOB_STALL_SECONDS: z.coerce.number().int().min(3).max(3600).default(60),
  /** How long an ended job, its result and its delivery log are kept. */
  JOB_RESULT_TTL_HOURS: z.coerce
    .number()
    .min(0.01)
    .max(24 * 90)
    .default(24),
  /** Attempts of one webhook (a job's callbackUrl) before it is given up. */
  WEBHOOK_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(20).default(8),
  /** The first webhook retry's delay; each next one doubles, with ±20 % jitter. */
  WEBHOOK_RETRY_BASE_MS: z.coerce.number().int().min(10).max(3_600_000).default(2000),
  /**
   * Resends of one job's webhook in a rolling hour (POST /jobs/{id}/webhook/resend). Each resend is a fresh set of
   * attempts, and a Gotenberg-style one posts the whole result again: 429 WEBHOOK_RESEND_LIMITED beyond.
   */
  WEBHOOK_RESENDS_PER_JOB_HOUR: z.coerce.number().int().min(1).max(1000).default(5),
  /** Resends of all of one account's jobs in a rolling hour. */
  WEBHOOK_RESENDS_PER_ACCOUNT_HOUR: z.coerce.number().int().min(1).max(100_000).default(60),
  METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
  /** Where jobs' inputs and results are kept: unset, DATA_DIR/jobs; `s3://bucket?endpoint=…`, an object store. */
  STORAGE_URL: z
    .string()
    .superRefine((v, ctx) => {
      try {
        parseStorageUrl(v);
      } catch (err) {
        ctx.addIssue({ code: 'custom', message: (err as Error).message });
      }
    })
    .optional(),
  /** The object store's keys (STORAGE_URL); unset, the SDK's usual sources (instance role, ~/.aws). */
  AWS_ACCESS_KEY_ID: z.string().optional(),
  AWS_SECRET_ACCESS_KEY: z.string().optional(),
  /** Payments through Stripe (services/billing): both set, or neither (then paid plans go through requests). */
  STRIPE_SECRET_KEY: z
    .string()
    .regex(/^(sk|rk)_\w+$/, 'must be a Stripe secret key (sk_… or rk_…)')
    .optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .regex(/^whsec_\w+$/, "must be the webhook endpoint's signing secret (whsec_…)")
    .optional(),
  /** Tests only: the SDK talks to this address (a local stand-in) instead of api.stripe.com. */
  STRIPE_API_BASE: z.url({ protocol: /^https?$/ }).optional(),
  /** Days a paid plan is kept after a failed payment, then the account is back on Free. */
  BILLING_GRACE_DAYS: z.coerce.number().int().min(0).max(90).default(7),
});

export type Env = z.infer<typeof ZEnv>;

export interface Config extends Env {
  dataDir: string;
  publicUrl: string;
  /** PUBLIC_URL is https: cookies carry Secure (a browser then never sends them over plain http). */
  secureCookies: boolean;
  jwtSecret: Uint8Array;
  /** Where request workspaces and other scratch files go. */
  tmpDir: string;
  /** The engine chains, processing limits and each engine module's settings (config/engines.ts). */
  engines: EnginesOptions;
  /** Where jobs' files live (STORAGE_URL, else DATA_DIR/jobs). */
  storage: StorageConfig;
  /** What the server may fetch on a client's behalf: URL_TO_PDF_ALLOW_PRIVATE and OUTBOUND_ALLOW_LIST. */
  outbound: OutboundRules;
  /** The time-stamp authority and the trust anchors of the signature endpoints. */
  signatures: SignatureConfig;
  /** Stripe (or none) and the grace period after a failed payment (config/billing.ts). */
  billing: BillingConfig;
}

/** Parse the environment. Throws ConfigError naming each bad variable. */
export function parseEnv(env: NodeJS.ProcessEnv = process.env): Env {
  // Empty strings count as unset, as in most .env tooling.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = ZEnv.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  if (parsed.data.PROCESSING_MODE !== 'all' && !parsed.data.DATABASE_URL) {
    throw new ConfigError([
      `PROCESSING_MODE=${parsed.data.PROCESSING_MODE}: needs DATABASE_URL (API nodes and workers share one PostgreSQL; the embedded database belongs to one process)`,
    ]);
  }
  if ((parsed.data.ADMIN_EMAIL === undefined) !== (parsed.data.ADMIN_PASSWORD === undefined)) {
    throw new ConfigError(['ADMIN_EMAIL and ADMIN_PASSWORD: set both or neither']);
  }
  if ((parsed.data.AWS_ACCESS_KEY_ID === undefined) !== (parsed.data.AWS_SECRET_ACCESS_KEY === undefined)) {
    throw new ConfigError(['AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY: set both or neither']);
  }
  return parsed.data;
}

/** Secrets not given in the environment are generated once and kept in DATA_DIR, so restarts keep sessions valid. */
function loadOrCreateSecrets(dataDir: string): { jwtSecret: string } {
  const file = path.join(dataDir, 'secrets.json');
  if (!existsSync(file)) {
    // Processes started together on one DATA_DIR (a fleet's nodes) must neither read a half-written file nor each
    // keep a secret of their own: the file appears whole (a hard link of a finished one), and the first one wins.
    const draft = `${file}.${process.pid}.tmp`;
    writeFileSync(draft, JSON.stringify({ jwtSecret: randomBytes(48).toString('base64url') }, null, 2), {
      mode: 0o600,
    });
    try {
      linkSync(draft, file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    } finally {
      rmSync(draft, { force: true });
    }
  }
  return JSON.parse(readFileSync(file, 'utf8'));
}

/**
 * The whole configuration, read once at start (server, CLI) and handed to buildApp: nothing below reads
 * `process.env`. Throws ConfigError naming every bad variable, of the server and of the engines alike.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const issues: string[] = [];
  const attempt = <T>(read: () => T): T | undefined => {
    try {
      return read();
    } catch (err) {
      if (!(err instanceof ConfigError)) throw err;
      issues.push(...err.issues);
      return undefined;
    }
  };
  const parsed = attempt(() => parseEnv(env));
  const engines = attempt(() => loadEngineConfig(env));
  const signatures = parsed && attempt(() => loadSignatureConfig(parsed));
  const billing = parsed && attempt(() => loadBillingConfig(env, parsed));
  if (!parsed || !engines || !signatures || !billing) throw new ConfigError(issues);
  const dataDir = path.resolve(parsed.DATA_DIR);
  // The server's own tree, closed to every other account before anything in it is read or written.
  privateDir(dataDir);
  lockDownTree(dataDir);
  const jwtSecret = parsed.JWT_SECRET ?? loadOrCreateSecrets(dataDir).jwtSecret;
  // Parsed, so that its scheme is known however it was written (HTTPS://… is https too).
  const publicUrl = new URL(parsed.PUBLIC_URL ?? `http://localhost:${parsed.PORT}`);
  return {
    ...parsed,
    dataDir,
    publicUrl: publicUrl.href.replace(/\/$/, ''),
    secureCookies: publicUrl.protocol === 'https:',
    jwtSecret: new TextEncoder().encode(jwtSecret),
    tmpDir: path.resolve(parsed.DOCFLOW_TMP_DIR ?? os.tmpdir()),
    // The pages Chromium loads follow the same outbound rules as the URLs the server checks itself.
    engines: { ...engines, outboundAllowList: parsed.OUTBOUND_ALLOW_LIST },
    storage: storageConfig(parsed, dataDir),
    outbound: { allowPrivate: parsed.URL_TO_PDF_ALLOW_PRIVATE, allowList: parsed.OUTBOUND_ALLOW_LIST },
    signatures,
    billing,
  };
}

function storageConfig(env: Env, dataDir: string): StorageConfig {
  if (!env.STORAGE_URL) return { kind: 'local', dir: path.join(dataDir, 'jobs') };
  const keys = env.AWS_ACCESS_KEY_ID;
  return {
    kind: 's3',
    ...parseStorageUrl(env.STORAGE_URL),
    credentials: keys ? { accessKeyId: keys, secretAccessKey: env.AWS_SECRET_ACCESS_KEY! } : undefined,
  };
}
