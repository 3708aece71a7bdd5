import { z } from 'zod';
import { successEnvelope } from './common';
import { ZSubscription } from './plans';

// Requests to the administrators (issue 29, "without Stripe"): a paid plan asked for, and support messages.

/** The period a customer asks to be billed for; the admin grants a number of days. */
export const ZRequestedPeriod = z.enum(['monthly', 'yearly']);
export type TRequestedPeriod = z.infer<typeof ZRequestedPeriod>;
/** Days granted for one period when the admin takes the requested one as it is. */
export const periodDays: Record<TRequestedPeriod, number> = { monthly: 30, yearly: 365 };

export const ZPlanRequestStatus = z.enum(['pending', 'granted', 'declined', 'cancelled']);
export type TPlanRequestStatus = z.infer<typeof ZPlanRequestStatus>;

export const ZCreatePlanRequest = z.object({
  planName: z.string().trim().min(1).max(50),
  billingPeriod: ZRequestedPeriod.default('monthly'),
  message: z.string().trim().max(2000, 'The message must be at most 2000 characters').optional(),
});
export type TCreatePlanRequest = z.input<typeof ZCreatePlanRequest>;

const ZPerson = z.object({ id: z.string(), email: z.string().nullable(), name: z.string().nullable() });

export const ZPlanRequest = z
  .object({
    id: z.string(),
    planName: z.string(),
    planDisplayName: z.string(),
    billingPeriod: ZRequestedPeriod,
    message: z.string().nullable(),
    status: ZPlanRequestStatus,
    /** What the admin granted: may differ from what was asked for. */
    grantedPlanName: z.string().nullable(),
    grantedPlanDisplayName: z.string().nullable(),
    grantedUntil: z.string().nullable(),
    decidedAt: z.string().nullable(),
    decisionNote: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'PlanRequest' });
export type TPlanRequest = z.infer<typeof ZPlanRequest>;

export const ZAdminPlanRequest = ZPlanRequest.extend({ user: ZPerson, decidedBy: ZPerson.nullable() }).meta({
  id: 'AdminPlanRequest',
});
export type TAdminPlanRequest = z.infer<typeof ZAdminPlanRequest>;

export const ZPlanRequestResponse = successEnvelope(z.object({ request: ZPlanRequest }));
export const ZPlanRequestsResponse = successEnvelope(z.object({ requests: z.array(ZPlanRequest) }));
export const ZAdminPlanRequestsQuery = z.object({ status: ZPlanRequestStatus.optional() });
export const ZAdminPlanRequestsResponse = successEnvelope(z.object({ requests: z.array(ZAdminPlanRequest) }));
export const ZAdminPlanRequestResponse = successEnvelope(z.object({ request: ZAdminPlanRequest }));

export const ZGrantPlanRequest = z.object({
  /** The plan to grant; the requested one when absent. */
  planName: z.string().trim().min(1).max(50).optional(),
  /** How long the plan is held, from now (or from the current end of the same plan, when later). */
  days: z.number().int().min(1).max(3660),
  note: z.string().trim().max(2000).optional(),
});
export type TGrantPlanRequest = z.infer<typeof ZGrantPlanRequest>;
export const ZGrantPlanRequestResponse = successEnvelope(
  z.object({ request: ZAdminPlanRequest, subscription: ZSubscription }),
);
export const ZDeclinePlanRequest = z.object({
  note: z.string().trim().min(1, 'A note is required: it tells the customer why').max(2000),
});
export type TDeclinePlanRequest = z.infer<typeof ZDeclinePlanRequest>;

// Support messages

export const ZSupportCategory = z.enum(['general', 'billing', 'technical', 'account', 'sales']);
export type TSupportCategory = z.infer<typeof ZSupportCategory>;
export const ZSupportMessageStatus = z.enum(['open', 'handled']);
export type TSupportMessageStatus = z.infer<typeof ZSupportMessageStatus>;

export const ZCreateSupportMessage = z.object({
  category: ZSupportCategory.default('general'),
  subject: z
    .string()
    .trim()
    .min(3, 'The subject must be 3 to 200 characters')
    .max(200, 'The subject must be 3 to 200 characters'),
  body: z
    .string()
    .trim()
    .min(10, 'The message must be 10 to 5000 characters')
    .max(5000, 'The message must be 10 to 5000 characters'),
});
export type TCreateSupportMessage = z.input<typeof ZCreateSupportMessage>;

export const ZSupportMessage = z
  .object({
    id: z.string(),
    category: ZSupportCategory,
    subject: z.string(),
    body: z.string(),
    status: ZSupportMessageStatus,
    reply: z.string().nullable(),
    handledAt: z.string().nullable(),
    createdAt: z.string(),
  })
  .meta({ id: 'SupportMessage' });
export type TSupportMessage = z.infer<typeof ZSupportMessage>;
export const ZAdminSupportMessage = ZSupportMessage.extend({ user: ZPerson, handledBy: ZPerson.nullable() }).meta({
  id: 'AdminSupportMessage',
});
export type TAdminSupportMessage = z.infer<typeof ZAdminSupportMessage>;

export const ZSupportMessageResponse = successEnvelope(z.object({ message: ZSupportMessage }));
export const ZSupportMessagesResponse = successEnvelope(z.object({ messages: z.array(ZSupportMessage) }));
export const ZAdminSupportMessagesQuery = z.object({ status: ZSupportMessageStatus.optional() });
export const ZAdminSupportMessagesResponse = successEnvelope(z.object({ messages: z.array(ZAdminSupportMessage) }));
export const ZAdminSupportMessageResponse = successEnvelope(z.object({ message: ZAdminSupportMessage }));
export const ZHandleSupportMessage = z.object({ reply: z.string().trim().max(5000).optional() });
export type THandleSupportMessage = z.infer<typeof ZHandleSupportMessage>;
