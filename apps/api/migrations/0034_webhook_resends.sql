-- Webhook resends are limited and counted (issue 28): one row per resend, read over a rolling hour per job and per
-- account. job_id has no foreign key on purpose: deleting a job must not hand its resends back to the account.
-- jobs.webhook_resends is the job's total, shown with its webhook.
CREATE TABLE webhook_resends (
  id bigserial PRIMARY KEY,
  job_id uuid NOT NULL,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_resends_user_idx ON webhook_resends (user_id, created_at);
CREATE INDEX webhook_resends_job_idx ON webhook_resends (job_id, created_at);

ALTER TABLE jobs ADD COLUMN webhook_resends integer NOT NULL DEFAULT 0;
