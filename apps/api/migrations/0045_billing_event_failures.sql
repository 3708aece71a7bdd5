-- Stripe events whose application failed (issue 29): the failure is kept on the event's row, for the admin list of
-- events (GET /api/v1/admin/billing/events), until a later delivery applies it. A row with processed_at null is not
-- applied yet: the next delivery claims it (services/billing/receive-event.ts).
ALTER TABLE billing_events ADD COLUMN error text;
ALTER TABLE billing_events ADD COLUMN failed_at timestamptz;
CREATE INDEX billing_events_type_idx ON billing_events(type, received_at);
