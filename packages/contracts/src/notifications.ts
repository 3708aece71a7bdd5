import { z } from 'zod';
import { successEnvelope } from './common';

export const ZNotificationType = z.enum(['success', 'warning', 'info']);

/** The events a notification reports: a reader renders one from its code and params in their own language. */
export const ZNotificationCode = z.enum([
  'api-key.created',
  'api-key.regenerated',
  'trial.started',
  'trial.ending',
  'trial.ended',
  'plan.renewed',
  'plan.renewed-open',
  'usage.key-quota-80',
  'usage.plan-quota-80',
  'billing.subscribed',
  'billing.upgraded',
  'billing.downgrade-scheduled',
  'billing.cancel-scheduled',
  'billing.resumed',
  'billing.payment-failed',
  'billing.payment-recovered',
  'billing.ended',
  'plan-request.created',
  'plan-request.granted',
  'plan-request.declined',
  'support-message.created',
  'support-message.handled',
]);
export type TNotificationCode = z.infer<typeof ZNotificationCode>;
export const ZNotification = z
  .object({
    id: z.string(),
    type: ZNotificationType,
    title: z.string(),
    message: z.string(),
    /** Absent on notifications older than the codes: title and message are then the only words. */
    code: ZNotificationCode.optional(),
    params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
    timestamp: z.string(),
    read: z.boolean(),
  })
  .meta({ id: 'Notification' });
export type TNotification = z.infer<typeof ZNotification>;

export const ZNotificationsQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(20),
  unreadOnly: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true'),
});
export const ZNotificationsResponse = successEnvelope(
  z.object({ notifications: z.array(ZNotification), unreadCount: z.number().int() }),
);
export const ZMarkAllReadResponse = successEnvelope(z.object({ updatedCount: z.number().int() }));
