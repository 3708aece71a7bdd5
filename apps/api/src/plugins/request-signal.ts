import type { FastifyReply, FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';

/** Multipart bodies are read from the parts by the handler: the body schema is for the API reference only. */
export const multipartValidator: FastifySchemaCompiler<unknown> = (route) =>
  route.httpPart === 'body'
    ? () => ({ value: undefined })
    : validatorCompiler(route as Parameters<typeof validatorCompiler>[0]);

/** Cancelled when the client disconnects before the answer is complete: tools are killed, queued work dropped. */
export function requestSignal(reply: FastifyReply): AbortSignal {
  const ac = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) ac.abort();
  });
  return ac.signal;
}
