import type { TErrorCode } from '@docflow/contracts';
import { EngineError, type EngineErrorCode } from '../core/errors';
import { AppError } from '../lib/app-error';

/**
 * The processing core's codes as API codes (their statuses come from the contracts' table). A chain where no engine
 * can do the job is the server's lack, not the client's fault; a client that left gets no answer.
 */
const engineCodes: Record<EngineErrorCode, TErrorCode> = {
  UNSUPPORTED_OPERATION: 'SERVICE_UNAVAILABLE',
  UNSUPPORTED_FORMAT: 'UNSUPPORTED_FORMAT',
  INVALID_INPUT: 'INVALID_INPUT',
  OUTPUT_TOO_LARGE: 'INVALID_INPUT',
  INVALID_PDF: 'INVALID_PDF',
  INVALID_DOCUMENT: 'INVALID_DOCUMENT',
  URL_NOT_ALLOWED: 'URL_NOT_ALLOWED',
  NOT_IN_PLAN: 'ENDPOINT_NOT_ALLOWED',
  PASSWORD_REQUIRED: 'PASSWORD_REQUIRED',
  WRONG_PASSWORD: 'WRONG_PASSWORD',
  PAGE_LIMIT_EXCEEDED: 'PAGE_LIMIT_EXCEEDED',
  CERTIFICATE_PASSWORD_WRONG: 'CERTIFICATE_PASSWORD_WRONG',
  INVALID_CERTIFICATE: 'INVALID_CERTIFICATE',
  CERTIFICATE_EXPIRED: 'CERTIFICATE_EXPIRED',
  TSA_UNAVAILABLE: 'TSA_UNAVAILABLE',
  PDF_CONTENT_TOO_LARGE: 'PDF_CONTENT_TOO_LARGE',
  ALL_PAGES_BLANK: 'ALL_PAGES_BLANK',
  NO_FORM_FIELDS: 'NO_FORM_FIELDS',
  DOCUMENT_TOO_COMPLEX: 'DOCUMENT_TOO_COMPLEX',
  TIMEOUT: 'TIMEOUT',
  QUEUE_FULL: 'QUEUE_FULL',
  // The caller's own share of the server is full: theirs to slow down (429), not the server's overload (503).
  FAIR_SHARE_EXCEEDED: 'RATE_LIMIT_EXCEEDED',
  ABORTED: 'CLIENT_CLOSED_REQUEST',
  ENGINE_FAILED: 'ENGINE_FAILED',
};

/** Refusals a client should retry later, told when (Retry-After). */
const retryLater = new Set<EngineErrorCode>(['QUEUE_FULL', 'FAIR_SHARE_EXCEEDED']);

/** An engine's refusal or failure as the API error the caller sees, whatever the door. */
export function fromEngineError(err: EngineError): AppError {
  const code = engineCodes[err.code];
  // Never the tool's own words: they may carry paths or internals.
  if (code === 'ENGINE_FAILED') return new AppError(code, 'The document could not be processed', { cause: err });
  return new AppError(code, err.message, {
    cause: err,
    details: err.details,
    headers: retryLater.has(err.code) ? { 'Retry-After': err.retryAfter ?? 1 } : undefined,
  });
}

/** What a call's failure tells its caller: its own refusal, an engine's, or (anything else) a generic 500. */
export function callError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof EngineError) return fromEngineError(err);
  return new AppError('INTERNAL_ERROR', 'Internal server error', { cause: err });
}
