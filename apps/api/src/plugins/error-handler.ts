import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { errorStatus, type TErrorCode, type TErrorResponse } from '@docflow/contracts';
import { AppError } from '../lib/app-error';
import { EngineError } from '../core/errors';
import { callError } from '../endpoints/call-errors';
import { requestLanguage } from '../lib/i18n/language';
import { localiseError } from '../lib/i18n/localise-error';
import { fieldIssue } from '../lib/field-issue';

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
  if (err instanceof AppError || err instanceof EngineError) return callError(err);
  const fe = err as FastifyError;
  if (hasZodFastifySchemaValidationErrors(fe)) {
    const issues = fe.validation.map((v) => {
      const field =
        (v.instancePath || '').replace(/^\//, '').replace(/\//g, '.') ||
        (v.params as { issue?: { path?: unknown[] } })?.issue?.path?.join('.') ||
        '';
      return fieldIssue(field, v.message ?? 'Invalid value', v.keyword, v.params ?? {});
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
  return callError(err);
}

/** The answer to a request: its human words in the caller's language (Accept-Language), its codes unchanged. */
export function errorBody(request: FastifyRequest, err: AppError): TErrorResponse {
  const lang = requestLanguage(request.headers['accept-language']);
  return errorAnswer(String(request.id), lang ? localiseError(err, lang) : err);
}

/** The JSON error answer of a call, whatever the door (a job's run answers it with its job id). */
export function errorAnswer(requestId: string, err: AppError): TErrorResponse {
  return {
    success: false,
    error: err.message,
    code: err.code,
    requestId,
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
    const lang = requestLanguage(request.headers['accept-language']);
    if (lang) reply.header('Content-Language', lang);
    const vary = reply.getHeader('vary');
    reply.header('Vary', vary ? `${String(vary)}, Accept-Language` : 'Accept-Language');
    return reply.code(appErr.statusCode).type('application/json').send(errorBody(request, appErr));
  });
  app.setNotFoundHandler((request, reply) => {
    const err = new AppError('ROUTE_NOT_FOUND', `Route ${request.method} ${request.url.split('?')[0]} not found`);
    return reply.code(404).send(errorBody(request, err));
  });
}
