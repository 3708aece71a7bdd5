import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { errorStatus, type TErrorCode, type TErrorResponse } from '@docflow/contracts';
import { AppError } from '../lib/app-error';
import { EngineError, type EngineErrorCode } from '../core/errors';

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
  PDF_CONTENT_TOO_LARGE: 'PDF_CONTENT_TOO_LARGE',
  ALL_PAGES_BLANK: 'ALL_PAGES_BLANK',
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

function fromEngineError(err: EngineError): AppError {
  const code = engineCodes[err.code];
  // Never the tool's own words: they may carry paths or internals.
  if (code === 'ENGINE_FAILED') return new AppError(code, 'The document could not be processed', { cause: err });
  return new AppError(code, err.message, {
    cause: err,
    details: err.details,
    headers: retryLater.has(err.code) ? { 'Retry-After': err.retryAfter ?? 1 } : undefined,
  });
}

const fastifyCodes: Record<string, TErrorCode> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'INVALID_JSON',
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'BAD_REQUEST',
  FST_REQ_FILE_TOO_LARGE: 'FILE_TOO_LARGE',
  FST_FILES_LIMIT: 'INVALID_INPUT',
  FST_PARTS_LIMIT: 'INVALID_INPUT',
  FST_FIELDS_LIMIT: 'INVALID_INPUT',
  FST_INVALID_MULTIPART_CONTENT_TYPE: 'INVALID_MULTIPART',
  FST_ERR_VALIDATION: 'VALIDATION_ERROR',
};

/** Turn anything thrown into the AppError the client sees. Unknown errors become a generic 500. */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof EngineError) return fromEngineError(err);
  const fe = err as FastifyError;
  if (hasZodFastifySchemaValidationErrors(fe)) {
    const issues = fe.validation.map((v) => {
      const field =
        (v.instancePath || '').replace(/^\//, '').replace(/\//g, '.') ||
        (v.params as { issue?: { path?: unknown[] } })?.issue?.path?.join('.') ||
        '';
      return { field, message: v.message ?? 'Invalid value' };
    });
    const first = issues[0];
    const where = fe.validationContext === 'body' ? '' : `${fe.validationContext} `;
    const message = first
      ? first.field
        ? `${where}${first.field}: ${first.message}`
        : first.message
      : 'Invalid request';
    return new AppError('VALIDATION_ERROR', message, { details: { fields: issues } });
  }
  if (fe && typeof fe.code === 'string' && fastifyCodes[fe.code]) {
    const code = fastifyCodes[fe.code]!;
    const message =
      code === 'INVALID_JSON'
        ? 'The request body is not valid JSON'
        : code === 'PAYLOAD_TOO_LARGE' || code === 'FILE_TOO_LARGE'
          ? 'The request body is too large'
          : fe.message;
    return new AppError(code, message, { cause: err });
  }
  if (fe && typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    const code = (Object.entries(errorStatus).find(([, s]) => s === fe.statusCode)?.[0] ?? 'BAD_REQUEST') as TErrorCode;
    return new AppError(code, fe.message, { cause: err });
  }
  return new AppError('INTERNAL_ERROR', 'Internal server error', { cause: err });
}

export function errorBody(request: FastifyRequest, err: AppError): TErrorResponse {
  return {
    success: false,
    error: err.message,
    code: err.code,
    requestId: String(request.id),
    ...(err.details !== undefined ? { details: err.details } : {}),
  };
}

/** The only place errors become HTTP answers. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err, request, reply: FastifyReply) => {
    if (isResponseSerializationError(err)) request.log.error({ err }, 'response did not match its schema');
    const appErr = toAppError(err);
    // Unavailable is a state the answer names (not ready yet, a dependency down), logged where it is found.
    if (appErr.statusCode >= 500 && appErr.code !== 'SERVICE_UNAVAILABLE') request.log.error({ err }, 'request failed');
    else request.log.info({ code: appErr.code, msg: appErr.message }, 'request refused');
    if (appErr.code === 'CLIENT_CLOSED_REQUEST') {
      return reply.code(499).send();
    }
    if (appErr.headers) reply.headers(appErr.headers);
    return reply.code(appErr.statusCode).type('application/json').send(errorBody(request, appErr));
  });
  app.setNotFoundHandler((request, reply) => {
    const err = new AppError('ROUTE_NOT_FOUND', `Route ${request.method} ${request.url.split('?')[0]} not found`);
    return reply.code(404).send(errorBody(request, err));
  });
}
