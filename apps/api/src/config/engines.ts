import os from 'node:os';
import { z } from 'zod';
import { ConfigError } from './config-error';
import { engineModules } from '../core/modules/index';
import type { Engines, EnginesOptions } from '../core/engines';
import { resolveToolPool, resolveToolUser } from '../core/tool-user';
import type { OperationName } from '../core/interfaces';
import type { EngineModule } from '../core/engine-module';
import type { ChainSpec } from '../core/chain';
import { convertChains } from '../core/operations/convert/chains';
import { ocrChains } from '../core/operations/ocr/chains';
import { pdfChains } from '../core/operations/pdf/chains';
import { qrChains } from '../core/operations/qr/chains';

/**
 * Engine settings from the environment: one ordered engine list per operation (first success wins, the next engine
 * is tried when one cannot do the job), the processing limits, and each module's own settings
 * (`<MODULE>_<KEY>`, e.g. `QPDF_BIN`). Unknown engine ids, or an engine named for an operation it does not
 * implement, stop the start with a message naming the variable and the valid ids.
 *
 * Every operation's chain (its variable, default engines and description) is declared by its area, beside the
 * operations that run it; this table only gathers them, and its type asks for every operation.
 */
export const chainEnv: Record<OperationName, ChainSpec> = {
  ...pdfChains,
  ...qrChains,
  ...convertChains,
  ...ocrChains,
};

const mb = (n: number) => n * 1_048_576;

export const ZProcessingEnv = z.object({
  PROCESSING_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(Math.max(1, os.availableParallelism())),
  PROCESSING_QUEUE_SIZE: z.coerce.number().int().min(0).max(100_000).default(100),
  PROCESSING_TIMEOUT_MS: z.coerce.number().int().min(100).max(3_600_000).default(120_000),
  /** Text a tool may print (extracted text, JSON dumps). */
  PROCESSING_MAX_OUTPUT_MB: z.coerce.number().int().min(1).max(4096).default(64),
  /** Address-space ceiling per tool process (prlimit --as); 0: none. */
  PROCESSING_MEMORY_LIMIT_MB: z.coerce.number().int().min(0).default(2048),
  /** Largest file a tool may write (prlimit --fsize); 0: none. */
  PROCESSING_MAX_FILE_MB: z.coerce.number().int().min(0).default(1024),
  /**
   * Start tools from a small helper process: a fork from the server costs ~20 ms and blocks it when the server holds
   * hundreds of MB (the embedded database); from the helper ~2 ms.
   */
  PROCESSING_TOOL_HOST: z
    .enum(['true', 'false', '1', '0'])
    .default('true')
    .transform((v) => v === 'true' || v === '1'),
  /**
   * Start the tools without network: a namespace of their own where nothing is reachable (core/isolation.ts). None
   * of them needs one; Chromium, which does for url-to-pdf, is not among them.
   */
  PROCESSING_NO_NETWORK: z
    .enum(['true', 'false', '1', '0'])
    .default('true')
    .transform((v) => v === 'true' || v === '1'),
  /**
   * The base account the tools run as when the server runs as root (core/tool-user.ts); the set-up script creates
   * `docflow-tools`, and `nobody` stands in where it does not exist. `none`: the server's own account. The accounts
   * `<name>-1`, `<name>-2`… found beside it (the set-up script creates PROCESSING_TOOL_ACCOUNTS of them) are the pool
   * each request and each LibreOffice instance leases one of (core/tool-accounts.ts).
   */
  PROCESSING_TOOL_USER: z.string().default('docflow-tools'),
  /**
   * Start merge, protect and whole-document text extraction while the inputs are checked (the answer still waits
   * for the checks; a refusal kills the work). Off by default: limits are checked before any work starts.
   */
  PROCESSING_SPECULATE: z
    .enum(['true', 'false', '1', '0'])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  /** Where the tools find programs, and fontconfig's settings when the operator set them: the tools get these. */
  PATH: z.string().optional(),
  FONTCONFIG_PATH: z.string().optional(),
  FONTCONFIG_FILE: z.string().optional(),
});

function moduleById(id: string): EngineModule<Record<string, unknown>> | undefined {
  const key = id.trim().toLowerCase();
  return engineModules.find((m) => m.id === key || m.aliases?.includes(key));
}

/** Parse the engine settings; throws ConfigError naming every bad variable. */
export function loadEngineConfig(env: NodeJS.ProcessEnv): EnginesOptions {
  const issues: string[] = [];
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = ZProcessingEnv.safeParse(cleaned);
  if (!parsed.success) issues.push(...parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));

  const chains: Partial<Record<OperationName, string[]>> = {};
  for (const [op, spec] of Object.entries(chainEnv) as Array<[OperationName, (typeof chainEnv)[OperationName]]>) {
    const raw = cleaned[spec.env];
    if (raw === undefined) {
      chains[op] = spec.defaults;
      continue;
    }
    if (raw.trim().toLowerCase() === 'none') {
      chains[op] = [];
      continue;
    }
    const ids: string[] = [];
    for (const name of raw
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean)) {
      const m = moduleById(name);
      const able = engineModules.filter((x) => x.operations.includes(op)).map((x) => x.id);
      if (!m)
        issues.push(`${spec.env}: unknown engine "${name}" (valid for ${spec.what}: ${able.join(', ')}; or "none")`);
      else if (!m.operations.includes(op))
        issues.push(`${spec.env}: engine "${name}" cannot do ${spec.what} (valid: ${able.join(', ')})`);
      else if (!ids.includes(m.id)) ids.push(m.id);
    }
    chains[op] = ids;
  }

  const moduleConfig: Record<string, Record<string, unknown>> = {};
  for (const m of engineModules) {
    const shape = (m.configSchema as unknown as { shape?: Record<string, unknown> }).shape ?? {};
    const input: Record<string, string> = {};
    for (const key of Object.keys(shape)) {
      const v = cleaned[`${m.envPrefix}_${key}`];
      if (v !== undefined) input[key] = v;
    }
    const r = m.configSchema.safeParse(input);
    if (r.success) moduleConfig[m.id] = r.data;
    else issues.push(...r.error.issues.map((i) => `${m.envPrefix}_${i.path.join('.')}: ${i.message}`));
  }

  if (issues.length || !parsed.success) throw new ConfigError(issues);
  const p = parsed.data;
  const toolUser = resolveToolUser(p.PROCESSING_TOOL_USER);
  const toolAccounts = resolveToolPool(toolUser);
  // Each LibreOffice instance keeps an account of the pool for its life: as many instances as accounts would leave
  // the requests' tools none, and they would wait in the queue for good (core/tool-accounts.ts).
  const officeInstances = chains.convertOffice?.includes('libreoffice')
    ? Number(moduleConfig.libreoffice?.INSTANCES) || 0
    : 0;
  if (toolAccounts.length > 0 && officeInstances >= toolAccounts.length)
    throw new ConfigError([
      `LIBREOFFICE_INSTANCES: ${officeInstances} instances would hold every one of the ${toolAccounts.length} tools' accounts (each keeps one for its life), leaving none for requests: run fewer, or create more accounts (PROCESSING_TOOL_ACCOUNTS with the set-up script)`,
    ]);
  return {
    chains,
    moduleConfig,
    concurrency: p.PROCESSING_CONCURRENCY,
    queueSize: p.PROCESSING_QUEUE_SIZE,
    timeoutMs: p.PROCESSING_TIMEOUT_MS,
    maxOutputBytes: mb(p.PROCESSING_MAX_OUTPUT_MB),
    memoryLimitBytes: p.PROCESSING_MEMORY_LIMIT_MB ? mb(p.PROCESSING_MEMORY_LIMIT_MB) : undefined,
    fileSizeLimitBytes: p.PROCESSING_MAX_FILE_MB ? mb(p.PROCESSING_MAX_FILE_MB) : undefined,
    speculate: p.PROCESSING_SPECULATE,
    toolHost: p.PROCESSING_TOOL_HOST,
    noNetwork: p.PROCESSING_NO_NETWORK,
    toolUser,
    toolAccounts,
    toolEnv: { PATH: p.PATH, FONTCONFIG_PATH: p.FONTCONFIG_PATH, FONTCONFIG_FILE: p.FONTCONFIG_FILE },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The processing engines and their chains, built from the configuration at boot (core/create-engines.ts). */
    engines: Engines;
  }
}
