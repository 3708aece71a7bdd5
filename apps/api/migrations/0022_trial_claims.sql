-- One free trial per plan per mailbox (issue 13, trial farming): a+1@x.io, a+2@x.io and a.b@gmail.com / ab@gmail.com
-- are one person's mailbox. The canonical mailbox (services/subscriptions/trial-mailbox.ts: lower case, no +tag,
-- no dots in a Gmail local part, googlemail.com as gmail.com) is claimed when a trial starts, and the claim outlives
-- the account, so deleting it and signing up again does not give a new trial either.
CREATE TABLE trial_claims (
  plan_id uuid NOT NULL REFERENCES plans(id) ON DELETE CASCADE,
  mailbox text NOT NULL,
  user_id uuid REFERENCES users(id) ON DELETE SET NULL,
  claimed_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (plan_id, mailbox)
);

-- The trials started before this table: the same canonical form, written in SQL once.
INSERT INTO trial_claims (plan_id, mailbox, user_id, claimed_at)
SELECT DISTINCT ON (s.plan_id, m.mailbox) s.plan_id, m.mailbox, s.user_id, s.started_at
FROM subscriptions s
JOIN users u ON u.id = s.user_id
CROSS JOIN LATERAL (
  SELECT CASE WHEN d.domain IN ('gmail.com', 'googlemail.com')
              THEN replace(d.local, '.', '') || '@gmail.com'
              ELSE d.local || '@' || d.domain END AS mailbox
  FROM (SELECT split_part(split_part(lower(trim(u.email)), '@', 1), '+', 1) AS local,
               split_part(lower(trim(u.email)), '@', 2) AS domain) d
) m
WHERE s.source = 'trial'
ORDER BY s.plan_id, m.mailbox, s.started_at
ON CONFLICT DO NOTHING;
