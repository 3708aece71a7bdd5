import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { statusFor } from '../../lib/gotenberg-status';
import { toAppError } from '../../plugins/error-handler';
import { ERROR_CODE_HEADER } from '../../services/jobs/runner';

/**
 * Errors as a Gotenberg client expects them: `text/plain` with the message, under Gotenberg's statuses
 * (lib/gotenberg-status.ts).
 */
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
