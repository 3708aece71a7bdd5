import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  ZBillingCheckoutRequest,
  ZBillingPortalRequest,
  ZBillingRedirectResponse,
  ZBillingStateResponse,
  ZBillingWebhookResponse,
  ZErrorResponse,
} from '@docflow/contracts';
import { authenticate, currentUser } from '../../../plugins/authenticate';
import { getBillingState } from '../../../services/billing/billing-state';
import { openPortal } from '../../../services/billing/open-portal';
import { receiveStripeEvent } from '../../../services/billing/receive-event';
import { startCheckout } from '../../../services/billing/start-checkout';

/** Payments: the signed-in user's billing (dashboard access token), and Stripe's webhook (signed by Stripe). */
export const billingRoutes: FastifyPluginAsyncZod = async (app) => {
  const tags = ['billing'];
  const security = [{ accessToken: [] }];

  app.get(
    '/',
    {
      preHandler: authenticate,
      schema: {
        tags,
        security,
        summary: 'My billing: the payment provider, my subscription, the next invoice and past invoices',
        response: { 200: ZBillingStateResponse, 401: ZErrorResponse },
      },
    },
    async (request) => ({
      success: true as const,
      data: await getBillingState(app.billing, currentUser(request).id),
    }),
  );
  app.post(
    '/checkout',
    {
      preHandler: authenticate,
      schema: {
        tags,
        security,
        summary: 'Buy a paid plan: answers the Stripe Checkout page to send the browser to',
        body: ZBillingCheckoutRequest,
        response: { 200: ZBillingRedirectResponse, 401: ZErrorResponse },
      },
    },
    async (request) => ({
      success: true as const,
      data: await startCheckout(app.billing, currentUser(request).id, request.body),
    }),
  );
  app.post(
    '/portal',
    {
      preHandler: authenticate,
      schema: {
        tags,
        security,
        summary: "Stripe's Customer Portal (card, invoices, plan change, cancellation): answers its address",
        description:
          'Without a body (or without `flow`), the portal opens on its home page. `flow` opens it on one task ' +
          "(Stripe's flow_data): payment_method_update (the card, e.g. after a failed payment), subscription_cancel " +
          'or subscription_update (of the live subscription; 409 BILLING_SUBSCRIPTION_MISSING without one). ' +
          'Each flow returns to /plans when done.',
        body: ZBillingPortalRequest.nullish(),
        response: { 200: ZBillingRedirectResponse, 401: ZErrorResponse },
      },
    },
    async (request) => ({
      success: true as const,
      data: await openPortal(app.billing, currentUser(request).id, { flow: request.body?.flow }),
    }),
  );

  await app.register(async (stripe) => {
    // The signature is over the exact bytes Stripe sent: this route keeps its body unparsed.
    stripe.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    stripe.post(
      '/stripe/webhook',
      {
        schema: {
          tags,
          summary: "Stripe's webhook endpoint: events verified by their Stripe-Signature, each applied once",
          response: { 200: ZBillingWebhookResponse },
        },
      },
      async (request) => {
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.from(String(request.body ?? ''));
        const signature = request.headers['stripe-signature'];
        const { applied } = await receiveStripeEvent(
          app.billing,
          body,
          Array.isArray(signature) ? signature[0] : signature,
        );
        return { received: true as const, applied };
      },
    );
  });
};
