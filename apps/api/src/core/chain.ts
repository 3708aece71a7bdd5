import { asEngineError, EngineChainError, EngineError, type EngineErrorCode } from './errors';
import type { OperationName } from './interfaces';
import { aborted } from './limiter';

/**
 * How the operator orders an operation's chain: the variable listing its engines, the engines used when it is unset,
 * and what the operation does (as configuration errors name it). Each area declares its own beside its operations
 * (operations/pdf/chains.ts, qr/, convert/, ocr/); config/engines.ts gathers them.
 */
export interface ChainSpec {
  env: string;
  defaults: string[];
  what: string;
}
export type ChainSpecs = Partial<Record<OperationName, ChainSpec>>;

export interface ChainLink<T> {
  id: string;
  impl: T;
}

export interface ChainResult<R> {
  value: R;
  /** The engine whose answer was used. */
  engine: string;
  /** Engines tried, the winner included. */
  attempts: number;
  /** What the engines before the winner failed with (for logs). */
  errors: EngineError[];
}

/**
 * Errors another engine would not fix: bad input, passwords, limits, overload, time. The chain stops on them and
 * rethrows the error as it is. Anything else (an unsupported option, a crash, a document one tool cannot read)
 * moves on to the next engine.
 */
const STOP: ReadonlySet<EngineErrorCode> = new Set<EngineErrorCode>([
  'INVALID_INPUT',
  'UNSUPPORTED_FORMAT',
  'URL_NOT_ALLOWED',
  'NOT_IN_PLAN',
  'PASSWORD_REQUIRED',
  'WRONG_PASSWORD',
  'PAGE_LIMIT_EXCEEDED',
  'PDF_CONTENT_TOO_LARGE',
  'OUTPUT_TOO_LARGE',
  'QUEUE_FULL',
  'FAIR_SHARE_EXCEEDED',
  'TIMEOUT',
  'ABORTED',
]);

/**
 * Try the engines of an operation in order; the first success wins. When every engine failed, throw an
 * EngineChainError holding each error (UNSUPPORTED_OPERATION when none is configured or none could do it).
 */
export async function runChain<T, R>(
  operation: string,
  links: ReadonlyArray<ChainLink<T>>,
  call: (impl: T, engine: string) => Promise<R>,
  opts: { signal?: AbortSignal } = {},
): Promise<ChainResult<R>> {
  const errors: EngineError[] = [];
  for (const link of links) {
    if (opts.signal?.aborted) throw aborted();
    try {
      const value = await call(link.impl, link.id);
      return { value, engine: link.id, attempts: errors.length + 1, errors };
    } catch (err) {
      const e = asEngineError(err, link.id);
      if (STOP.has(e.code)) throw e;
      errors.push(e);
    }
  }
  throw new EngineChainError(operation, errors);
}
