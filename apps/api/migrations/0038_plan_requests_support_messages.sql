-- Without a payment provider (issue 29), a paid plan is asked for and granted by an administrator, and a support
-- message is stored for the administrators to answer. Both keep who decided, when and with what note.
CREATE TABLE plan_requests (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  plan_id uuid NOT NULL REFERENCES plans(id),
  billing_period text NOT NULL CHECK (billing_period IN ('monthly', 'yearly')),
  message text,
  status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'granted', 'declined', 'cancelled')),
  -- What was granted (the admin may grant another plan or period than the one asked for).
  granted_plan_id uuid REFERENCES plans(id),
  granted_until timestamptz,
  decided_by uuid REFERENCES users(id) ON DELETE SET NULL,
  decided_at timestamptz,
  decision_note text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX plan_requests_user_idx ON plan_requests (user_id, created_at DESC);
CREATE INDEX plan_requests_status_idx ON plan_requests (status, created_at DESC);
-- One open request per user and plan: a second click does not queue a duplicate.
CREATE UNIQUE INDEX plan_requests_one_pending_idx ON plan_requests (user_id, plan_id) WHERE status = 'pending';

CREATE TABLE support_messages (
  id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  category text NOT NULL,
  subject text NOT NULL,
  body text NOT NULL,
  status text NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'handled')),
  handled_by uuid REFERENCES users(id) ON DELETE SET NULL,
  handled_at timestamptz,
  reply text,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX support_messages_user_idx ON support_messages (user_id, created_at DESC);
CREATE INDEX support_messages_status_idx ON support_messages (status, created_at DESC);
