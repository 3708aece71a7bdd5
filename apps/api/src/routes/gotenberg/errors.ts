import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { AppError } from '../../lib/app-error';
import { statusFor } from '../../lib/gotenberg-status';
import type { Rendered } from '../../lib/outcome';
import { toAppError } from '../../plugins/error-handler';
import { chromiumFailureMessage } from './chromium-errors';

/**
 * An error as a Gotenberg client expects it: `text/plain` with the message, under Gotenberg's statuses
 * (lib/gotenberg-status.ts). The same for a synchronous call and a job's run (its webhook's error URL).
 */
export function gotenbergErrorAnswer(e: AppError): Rendered {
  const status = e.code === 'CLIENT_CLOSED_REQUEST' ? 499 : statusFor(e.code, e.statusCode, e.details);
  return {
    statusCode: status,
    contentType: 'text/plain; charset=UTF-8',
    // Gotenberg's own Basic auth answers this challenge; HTTP clients use it to retry with credentials.
    headers: {
      ...e.headers,
      ...(status === 401 ? { 'WWW-Authenticate': 'Basic realm="DocFlow", charset="UTF-8"' } : {}),
    },
    fileName: null,
    inline: false,
    body: Buffer.from(status === 499 ? '' : (chromiumFailureMessage(e) ?? e.message)),
    size: null,
  };
}

export function gotenbergErrorHandler(err: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  const e = toAppError(err);
  if (e.statusCode >= 500) request.log.error({ err }, 'request failed');
  else request.log.info({ code: e.code, msg: e.message }, 'request refused');
  if (e.code === 'CLIENT_CLOSED_REQUEST') return reply.code(499).send();
  const answer = gotenbergErrorAnswer(e);
  return reply.code(answer.statusCode).headers(answer.headers).type(answer.contentType).send(answer.body);
}
