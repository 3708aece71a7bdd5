-- Signed webhooks (issue 12): a job's callbackUrl is told when the job ends, retried with backoff; every attempt kept.
ALTER TABLE jobs ADD COLUMN callback_url text;
-- null: no webhook; pending (due at webhook_next_at), delivered, failed (attempts used up).
ALTER TABLE jobs ADD COLUMN webhook_status text;
ALTER TABLE jobs ADD COLUMN webhook_attempts integer NOT NULL DEFAULT 0;
ALTER TABLE jobs ADD COLUMN webhook_next_at timestamptz;
CREATE INDEX jobs_webhook_due_idx ON jobs (webhook_next_at) WHERE webhook_status = 'pending';

-- The key each user's webhooks are signed with: shown to its owner (so kept readable), rotatable.
CREATE TABLE webhook_secrets (
  user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  secret text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE webhook_deliveries (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  job_id uuid NOT NULL REFERENCES jobs(id) ON DELETE CASCADE,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  url text NOT NULL,
  event text NOT NULL,
  attempt integer NOT NULL,
  ok boolean NOT NULL,
  status_code integer,
  latency_ms integer NOT NULL,
  error text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX webhook_deliveries_job_idx ON webhook_deliveries (job_id, created_at);
CREATE INDEX webhook_deliveries_user_idx ON webhook_deliveries (user_id, created_at DESC);
