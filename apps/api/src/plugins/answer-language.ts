import type { FastifyInstance } from 'fastify';
import { requestLanguage } from '../lib/i18n/language';
import { translateText } from '../lib/i18n/messages';

/**
 * The human `message` of a successful JSON answer ("Check your email…", "Signed in.") in the caller's language, as
 * error messages are (plugins/error-handler.ts): a message the catalogue lists is given in the language asked by
 * Accept-Language; codes and data never change, and without the header the answer is as written.
 */
export function registerAnswerLanguage(app: FastifyInstance): void {
  app.addHook('preSerialization', async (request, reply, payload: unknown) => {
    const body = payload as { success?: unknown; message?: unknown } | null;
    if (!body || typeof body !== 'object' || body.success !== true || typeof body.message !== 'string') return payload;
    const lang = requestLanguage(request.headers['accept-language']);
    if (!lang) return payload;
    const vary = reply.getHeader('vary');
    if (!String(vary ?? '').includes('Accept-Language'))
      reply.header('Vary', vary ? `${String(vary)}, Accept-Language` : 'Accept-Language');
    const message = translateText(body.message, lang);
    if (!message || message === body.message) return payload;
    reply.header('Content-Language', lang);
    return { ...body, message };
  });
}
