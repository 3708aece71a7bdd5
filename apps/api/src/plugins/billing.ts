import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { createBillingContext, startGraceSweep } from '../services/billing/index';
import type { BillingContext } from '../services/billing/context';

declare module 'fastify' {
  interface FastifyInstance {
    /** Payments (services/billing): Stripe when STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set, else none. */
    billing: BillingContext;
  }
}

async function plugin(app: FastifyInstance) {
  const billing = createBillingContext({
    db: app.db,
    config: app.config,
    mailer: app.mailer,
    publicUrl: () => app.config.publicUrl,
    log: app.log,
  });
  app.decorate('billing', billing);
  if (billing.stripe && app.config.PROCESSING_MODE !== 'worker') app.onShutdown(startGraceSweep(billing));
}

export const billingPlugin = fp(plugin, { name: 'billing' });
