import type { FastifyInstance } from 'fastify';
import type { RequestsContext } from '../../../services/customer-requests/context';

/** The app as the customer-request services see it. */
export const requestsContext = (app: FastifyInstance): RequestsContext => ({
  db: app.db,
  mailer: app.mailer,
  publicUrl: app.config.publicUrl,
});
