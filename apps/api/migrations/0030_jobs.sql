-- Async jobs (issue 12): a processing call admitted with async=true, its inputs and result kept in the job store
-- (DATA_DIR/jobs/<id> by default) until expires_at.
CREATE TABLE jobs (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  key_id uuid REFERENCES api_keys(id) ON DELETE SET NULL,
  endpoint text NOT NULL,
  endpoint_group text NOT NULL,
  route text NOT NULL,
  status text NOT NULL DEFAULT 'queued',
  progress integer NOT NULL DEFAULT 0,
  fields jsonb NOT NULL DEFAULT '{}',
  inputs jsonb NOT NULL DEFAULT '[]',
  request_headers jsonb NOT NULL DEFAULT '{}',
  steps jsonb NOT NULL DEFAULT '[]',
  attempts integer NOT NULL DEFAULT 0,
  -- host:pid of the node running it (or that ran it last)
  worker text,
  error_code text,
  error_message text,
  result jsonb,
  bytes_in bigint NOT NULL DEFAULT 0,
  -- a synchronous call an API node (PROCESSING_MODE=api) handed to a worker: not listed, deleted once answered
  sync boolean NOT NULL DEFAULT false,
  created_at timestamptz NOT NULL DEFAULT now(),
  started_at timestamptz,
  finished_at timestamptz,
  expires_at timestamptz,
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX jobs_user_idx ON jobs (user_id, created_at DESC);
CREATE INDEX jobs_status_idx ON jobs (status, created_at);
CREATE INDEX jobs_expiry_idx ON jobs (expires_at) WHERE expires_at IS NOT NULL;
