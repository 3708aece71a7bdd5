-- Payments through Stripe (issue 29): who is which Stripe customer, the Stripe subscriptions as last seen, and every
-- webhook event received, once each (services/billing).

-- A plan paid through Stripe is held like any other (one subscriptions row per user and plan), from source 'stripe'.
-- (If another migration redefines this list too, it must keep 'stripe'.)
ALTER TABLE subscriptions DROP CONSTRAINT IF EXISTS subscriptions_source_check;
ALTER TABLE subscriptions ADD CONSTRAINT subscriptions_source_check
  CHECK (source IN ('trial', 'signup', 'admin', 'stripe'));

CREATE TABLE billing_customers (
  user_id uuid PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  stripe_customer_id text NOT NULL UNIQUE,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- The Stripe subscription as the last event's fetch of it showed it; the plan rows in `subscriptions` follow from it.
CREATE TABLE billing_subscriptions (
  stripe_subscription_id text PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  stripe_customer_id text NOT NULL,
  plan_id uuid NOT NULL REFERENCES plans(id),
  stripe_price_id text NOT NULL,
  billing_interval text NOT NULL CHECK (billing_interval IN ('monthly', 'yearly')),
  -- Stripe's own status: trialing, active, past_due, unpaid, canceled, incomplete, incomplete_expired, paused.
  status text NOT NULL,
  current_period_start timestamptz,
  current_period_end timestamptz,
  cancel_at_period_end boolean NOT NULL DEFAULT false,
  ended_at timestamptz,
  -- Set at the first failed payment: the plan is kept until then (BILLING_GRACE_DAYS), cleared when a payment succeeds.
  grace_until timestamptz,
  -- When the lapse of the grace period was told (notification and mail): claimed by one node only.
  grace_lapse_told_at timestamptz,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX billing_subscriptions_user_idx ON billing_subscriptions(user_id, updated_at DESC);
CREATE INDEX billing_subscriptions_grace_idx ON billing_subscriptions(grace_until)
  WHERE grace_until IS NOT NULL AND grace_lapse_told_at IS NULL;

-- Every verified webhook event, kept whole. The primary key makes a second delivery (same node or another) a no-op:
-- the first transaction to insert the id applies it, the others find it there.
CREATE TABLE billing_events (
  id text PRIMARY KEY,
  type text NOT NULL,
  stripe_created timestamptz NOT NULL,
  payload jsonb NOT NULL,
  -- What applying it did: 'applied', or why it was left (e.g. 'ignored: unknown customer').
  outcome text,
  received_at timestamptz NOT NULL DEFAULT now(),
  processed_at timestamptz
);
CREATE INDEX billing_events_received_idx ON billing_events(received_at);
