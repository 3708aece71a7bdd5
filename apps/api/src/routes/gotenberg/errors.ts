import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { TErrorCode } from '@docflow/contracts';
import { toAppError } from '../../plugins/error-handler';
import { ERROR_CODE_HEADER } from '../../services/jobs/runner';

/**
 * Errors as a Gotenberg client expects them: `text/plain` with the message, and Gotenberg's statuses where they
 * differ from DocFlow's (plugins/error-handler.ts stays the one mapping of what went wrong; this only reshapes the
 * answer). A form or document the route cannot use is 400 (DocFlow says 422 or 415), a timeout is 503 (DocFlow
 * 504) and a full queue is 429; keys, plans, limits and sizes keep DocFlow's statuses (401, 402, 403, 413, 429).
 */

const gotenbergStatus: Partial<Record<TErrorCode, number>> = {
  TIMEOUT: 503,
  QUEUE_FULL: 429,
};

/** The page checks a client asked for (failOnHttpStatusCodes, failOnConsoleExceptions): Gotenberg's 409 Conflict. */
const conflictReasons = new Set(['HTTP_STATUS', 'CONSOLE_EXCEPTIONS']);

export function statusFor(code: TErrorCode, status: number, details?: unknown): number {
  const reason = (details as { reason?: unknown } | undefined)?.reason;
  if (code === 'INVALID_DOCUMENT' && typeof reason === 'string' && conflictReasons.has(reason)) return 409;
  const mapped = gotenbergStatus[code];
  if (mapped) return mapped;
  if (status === 415 || status === 422) return 400;
  return status;
}

export function gotenbergErrorHandler(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const e = toAppError(err);
  if (e.statusCode >= 500) request.log.error({ err }, 'request failed');
  else request.log.info({ code: e.code, msg: e.message }, 'request refused');
  if (e.code === 'CLIENT_CLOSED_REQUEST') return reply.code(499).send();
  if (e.headers) reply.headers(e.headers);
  // A job's run (a Gotenberg webhook): the code goes to the job's record, the text to the error URL.
  if (request.jobRun) reply.header(ERROR_CODE_HEADER, e.code);
  const status = statusFor(e.code, e.statusCode, e.details);
  // Gotenberg's own Basic auth answers this challenge; HTTP clients use it to retry with credentials.
  if (status === 401) reply.header('WWW-Authenticate', 'Basic realm="DocFlow", charset="UTF-8"');
  return reply.code(status).type('text/plain; charset=UTF-8').send(e.message);
}
