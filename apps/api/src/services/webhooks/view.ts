import type { TWebhookDelivery } from '@docflow/contracts';
import type { WebhookDeliveryRow } from '../../data/schema/index';

export const deliveryView = (d: WebhookDeliveryRow): TWebhookDelivery => ({
  id: d.id,
  jobId: d.jobId,
  url: d.url,
  event: d.event,
  attempt: d.attempt,
  ok: d.ok,
  statusCode: d.statusCode,
  latencyMs: d.latencyMs,
  error: d.error,
  createdAt: d.createdAt.toISOString(),
});
