import type { AllowList } from './net/allow-list';
import type { z } from 'zod';
import type { Engine, OperationName } from './interfaces';
import type { ToolRunner } from './run-tool';
import type { ToolAccounts } from './tool-accounts';
import type { ToolEnvBase } from './tool-env';
import type { ToolUser } from './tool-user';

/** What an engine instance receives from the core: the shared tool runner (limiter, timeout, rlimits). */
export interface EngineContext {
  tools: ToolRunner;
  /** Cap on text a tool may print (extracted text, JSON). */
  maxOutputBytes: number;
  /** Start long-lived tools (the LibreOffice pool) without network too, like `tools` does for the others. */
  noNetwork?: boolean;
  /** Start long-lived tools (LibreOffice, Chromium) as this unprivileged account too (core/tool-user.ts). */
  toolUser?: ToolUser | null;
  /** The tools' accounts, for an engine whose instances each hold one for good (LibreOffice: `reserve`). */
  accounts?: ToolAccounts;
  /** What long-lived tools take from the server's environment too (PATH, the font configuration). */
  toolEnv?: ToolEnvBase;
  /** The operator's intranet hosts and ranges a fetch may reach beside public addresses (OUTBOUND_ALLOW_LIST). */
  outboundAllowList?: AllowList;
}

export interface EngineHealth {
  ok: boolean;
  version?: string;
  message?: string;
  /** How long the check took (set by Engines.health). */
  ms?: number;
}

/**
 * An engine module: an id, the operations it implements, an optional config schema (read from env vars named
 * `<ENVPREFIX>_<KEY>`), a factory and a health check. Modules self-describe; `modules/index.ts` is the wiring list.
 */
export interface EngineModule<C extends Record<string, unknown> = Record<string, unknown>> {
  id: string;
  /** Other names accepted in config (e.g. `pdfunite` for poppler). */
  aliases?: string[];
  description: string;
  /** Licence of the underlying tool, for operators choosing engines (Ghostscript is AGPL). */
  license: string;
  operations: readonly OperationName[];
  /** Env prefix for this module's settings, e.g. `QPDF` → `QPDF_BIN`. */
  envPrefix: string;
  configSchema: z.ZodType<C>;
  create(config: C, ctx: EngineContext): Engine;
  healthCheck(config: C, ctx: EngineContext): Promise<EngineHealth>;
}

export function defineModule<C extends Record<string, unknown>>(m: EngineModule<C>): EngineModule<C> {
  return m;
}
