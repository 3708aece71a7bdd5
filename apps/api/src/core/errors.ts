/**
 * What can go wrong inside the processing core. The chain reads these codes to decide whether the next engine may
 * do better (UNSUPPORTED_OPERATION, ENGINE_FAILED, INVALID_PDF) or whether to stop at once (bad input, password,
 * limits, overload, timeout, a client that left).
 */
export const engineErrorCodes = [
  'UNSUPPORTED_OPERATION',
  'UNSUPPORTED_FORMAT',
  'INVALID_INPUT',
  'INVALID_PDF',
  /** A document other than a PDF (office file, image, HTML, EPUB) that its converter could not read. */
  'INVALID_DOCUMENT',
  /** A URL the server refuses to fetch (private or non-public address, scheme not allowed). */
  'URL_NOT_ALLOWED',
  /** An option the caller's plan does not include (JavaScript in HTML conversions). */
  'NOT_IN_PLAN',
  'PASSWORD_REQUIRED',
  'WRONG_PASSWORD',
  'PAGE_LIMIT_EXCEEDED',
  /** Signing: the PKCS#12 file does not open with the password, is no PKCS#12, or its certificate is expired. */
  'CERTIFICATE_PASSWORD_WRONG',
  'INVALID_CERTIFICATE',
  'CERTIFICATE_EXPIRED',
  /** The configured time-stamp authority gave no time-stamp. */
  'TSA_UNAVAILABLE',
  /** A PDF whose pages' content decodes to more than the server reads (a flate bomb): pdf-scan/limits.ts. */
  'PDF_CONTENT_TOO_LARGE',
  /** Every page of a PDF was found blank: removing the blank pages would leave no document. */
  'ALL_PAGES_BLANK',
  /** A form operation on a PDF that has no fillable fields. */
  'NO_FORM_FIELDS',
  /** A document that needs more time (the plan's deadline) or memory than one conversion may take. */
  'DOCUMENT_TOO_COMPLEX',
  'OUTPUT_TOO_LARGE',
  'TIMEOUT',
  'QUEUE_FULL',
  /** One owner holds their whole share of the processing slots and queue (core/limiter.ts): others still get in. */
  'FAIR_SHARE_EXCEEDED',
  'ABORTED',
  'ENGINE_FAILED',
] as const;
export type EngineErrorCode = (typeof engineErrorCodes)[number];

export interface EngineErrorOptions {
  cause?: unknown;
  /** Which engine raised it (set by the chain when missing). */
  engine?: string;
  /** Safe, structured facts for the client (e.g. `{ field, valid }`). */
  details?: unknown;
  /** Seconds a client should wait (QUEUE_FULL, FAIR_SHARE_EXCEEDED). */
  retryAfter?: number;
}

/**
 * An error of the processing core. `message` is safe to show to the client (it names the field or the problem,
 * never a path, a command line or a tool's stderr); the cause, with stderr, only goes to the log.
 */
export class EngineError extends Error {
  readonly code: EngineErrorCode;
  engine?: string;
  readonly details?: unknown;
  readonly retryAfter?: number;
  /** A tool ran and refused this document (as opposed to a tool missing or the server failing). */
  documentFault = false;

  constructor(code: EngineErrorCode, message: string, opts: EngineErrorOptions = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = 'EngineError';
    this.code = code;
    this.engine = opts.engine;
    this.details = opts.details;
    this.retryAfter = opts.retryAfter;
  }
}

/** The whole chain failed: every engine's error, joined (the AggregateError of the core). */
export class EngineChainError extends EngineError {
  readonly errors: EngineError[];
  readonly operation: string;

  constructor(operation: string, errors: EngineError[]) {
    const code = chainCode(errors);
    const representative = errors.find((e) => e.code === code) ?? errors[0];
    const message =
      code === 'UNSUPPORTED_OPERATION'
        ? `No configured engine can perform ${operation}${errors.length ? ` (${errors.map((e) => e.message).join('; ')})` : ''}`
        : code === 'INVALID_PDF' && !errors.some((e) => e.code === 'INVALID_PDF')
          ? 'The PDF could not be processed: it is damaged or uses features the engines cannot handle (POST /pdf/repair may help)'
          : (representative?.message ?? `${operation} failed`);
    super(code, message, {
      cause: new AggregateError(errors, `${operation}: all engines failed`),
      details: representative?.details,
    });
    this.name = 'EngineChainError';
    this.errors = errors;
    this.operation = operation;
  }
}

/** The code a failed chain answers with: the most telling one among its engines' errors. */
function chainCode(errors: EngineError[]): EngineErrorCode {
  if (errors.length === 0) return 'UNSUPPORTED_OPERATION';
  if (errors.every((e) => e.code === 'UNSUPPORTED_OPERATION')) return 'UNSUPPORTED_OPERATION';
  const tried = errors.filter((e) => e.code !== 'UNSUPPORTED_OPERATION');
  for (const c of ['INVALID_PDF', 'INVALID_DOCUMENT', 'DOCUMENT_TOO_COMPLEX', 'OUTPUT_TOO_LARGE', 'TIMEOUT'] as const)
    if (tried.some((e) => e.code === c)) return c;
  // Every engine's tool ran and rejected the document: the document is at fault, not the server (422, not 500).
  if (tried.every((e) => e.documentFault)) return 'INVALID_PDF';
  return tried.every((e) => e.code === tried[0]!.code) ? tried[0]!.code : 'ENGINE_FAILED';
}

export const INVALID_PDF_MESSAGE =
  'The PDF is damaged or not a valid PDF and could not be read (POST /pdf/repair may recover it)';

/** Wrap anything thrown by an engine into an EngineError (unknown errors: ENGINE_FAILED). */
export function asEngineError(err: unknown, engine?: string): EngineError {
  if (err instanceof EngineError) {
    if (!err.engine && engine) err.engine = engine;
    return err;
  }
  return new EngineError('ENGINE_FAILED', 'The document could not be processed', { cause: err, engine });
}

export const unsupported = (what: string, engine?: string) =>
  new EngineError('UNSUPPORTED_OPERATION', what, { engine });
export const invalidInput = (field: string, message: string, valid?: string) =>
  new EngineError('INVALID_INPUT', `${field}: ${message}${valid ? ` (valid: ${valid})` : ''}`, {
    details: { field, ...(valid ? { valid } : {}) },
  });
