-- Plans, trials/subscriptions, API keys and usage metering (issue 4).

CREATE TABLE plans (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  name text NOT NULL UNIQUE,
  display_name text NOT NULL,
  description text NOT NULL DEFAULT '',
  price numeric(10, 2) NOT NULL DEFAULT 0 CHECK (price >= 0),
  currency text NOT NULL DEFAULT 'USD',
  billing_period text NOT NULL DEFAULT 'monthly' CHECK (billing_period IN ('monthly', 'yearly', 'one-time')),
  max_requests_per_month integer NOT NULL CHECK (max_requests_per_month > 0),
  max_requests_per_hour integer NOT NULL CHECK (max_requests_per_hour > 0),
  max_requests_per_minute integer NOT NULL CHECK (max_requests_per_minute > 0),
  max_file_size bigint NOT NULL CHECK (max_file_size >= 1024),
  max_pages_per_pdf integer,
  max_api_keys_per_user integer NOT NULL CHECK (max_api_keys_per_user >= 0),
  burst_limit integer,
  allowed_endpoints text[] NOT NULL,
  features text[] NOT NULL DEFAULT '{}',
  validity_days integer CHECK (validity_days IS NULL OR validity_days > 0),
  is_active boolean NOT NULL DEFAULT true,
  is_public boolean NOT NULL DEFAULT true,
  is_recommended boolean NOT NULL DEFAULT false,
  sort_order integer NOT NULL DEFAULT 0,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);

INSERT INTO plans (name, display_name, description, price, currency, billing_period, max_requests_per_month,
  max_requests_per_hour, max_requests_per_minute, max_file_size, max_pages_per_pdf, max_api_keys_per_user, burst_limit,
  allowed_endpoints, features, validity_days, is_active, is_public, is_recommended, sort_order)
VALUES
  ('free', 'Free', 'Document conversion to PDF for trying DocFlow and small projects.', 0, 'USD', 'monthly',
   1000, 100, 5, 5242880, 10, 1, 10,
   ARRAY['conversion'],
   ARRAY['1,000 requests per month', 'Conversion of 15+ formats to PDF', 'Files up to 5 MB', 'PDFs up to 10 pages', '1 API key', 'Community support'],
   NULL, true, true, false, 1),
  ('pro', 'Pro', 'Conversion, PDF operations, OCR and QR codes for production applications.', 29, 'USD', 'monthly',
   100000, 5000, 100, 52428800, 1000, 5, 200,
   ARRAY['conversion', 'pdf', 'ocr', 'qrcode'],
   ARRAY['100,000 requests per month', 'Conversion, PDF operations, OCR and QR codes', 'Files up to 50 MB', 'PDFs up to 1,000 pages', '5 API keys', 'Bursts of 200 requests', 'E-mail support'],
   NULL, true, true, true, 2),
  ('enterprise', 'Enterprise', 'Every endpoint, batch conversion and webhooks, with the highest limits.', 99, 'USD', 'monthly',
   1000000, 50000, 1000, 524288000, 10000, 50, 2000,
   ARRAY['conversion', 'pdf', 'ocr', 'qrcode', 'batch', 'webhook'],
   ARRAY['1,000,000 requests per month', 'All endpoints, batch conversion and webhooks', 'Files up to 500 MB', 'PDFs up to 10,000 pages', '50 API keys', 'Bursts of 2,000 requests', 'Priority support'],
   NULL, true, true, false, 3);

CREATE TABLE subscriptions (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  plan_id uuid NOT NULL REFERENCES plans(id),
  status text NOT NULL CHECK (status IN ('trial', 'active', 'expired', 'cancelled')),
  source text NOT NULL CHECK (source IN ('trial', 'signup', 'admin')),
  started_at timestamptz NOT NULL DEFAULT now(),
  -- NULL: no end (the free plan, or an open-ended admin grant). A trial past this instant reads expired.
  expires_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
-- One row per user and plan: a second trial of the same plan is refused, a renewal updates the row.
CREATE UNIQUE INDEX subscriptions_user_plan_idx ON subscriptions(user_id, plan_id);

CREATE TABLE api_keys (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  plan_id uuid NOT NULL REFERENCES plans(id),
  name text NOT NULL,
  description text,
  environment text NOT NULL DEFAULT 'development' CHECK (environment IN ('development', 'staging', 'production')),
  key_hash text NOT NULL UNIQUE,
  key_prefix text NOT NULL,
  is_active boolean NOT NULL DEFAULT true,
  key_type text NOT NULL DEFAULT 'standard' CHECK (key_type IN ('standard', 'custom')),
  custom_limits jsonb,
  last_used_at timestamptz,
  expires_at timestamptz,
  regenerated_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz
);
CREATE INDEX api_keys_user_idx ON api_keys(user_id);

CREATE TABLE usage_events (
  id bigserial PRIMARY KEY,
  key_id uuid NOT NULL,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  endpoint text NOT NULL,
  endpoint_group text NOT NULL,
  method text NOT NULL,
  status_code integer NOT NULL,
  duration_ms integer NOT NULL,
  bytes_in bigint NOT NULL DEFAULT 0,
  bytes_out bigint NOT NULL DEFAULT 0,
  pages integer,
  error_code text,
  counted boolean NOT NULL DEFAULT true,
  request_id text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX usage_events_user_idx ON usage_events(user_id, created_at);
CREATE INDEX usage_events_key_idx ON usage_events(key_id, created_at);

CREATE TABLE usage_daily (
  day date NOT NULL,
  key_id uuid NOT NULL,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  endpoint text NOT NULL,
  endpoint_group text NOT NULL,
  requests integer NOT NULL DEFAULT 0,
  counted integer NOT NULL DEFAULT 0,
  errors integer NOT NULL DEFAULT 0,
  total_duration_ms bigint NOT NULL DEFAULT 0,
  bytes_in bigint NOT NULL DEFAULT 0,
  bytes_out bigint NOT NULL DEFAULT 0,
  PRIMARY KEY (day, key_id, endpoint)
);
CREATE INDEX usage_daily_user_idx ON usage_daily(user_id, day);
