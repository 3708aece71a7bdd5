import { z } from 'zod';
import { successEnvelope } from './common';

export const ZNotificationType = z.enum(['success', 'warning', 'info']);
export const ZNotification = z
  .object({
    id: z.string(),
    type: ZNotificationType,
    title: z.string(),
    message: z.string(),
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
