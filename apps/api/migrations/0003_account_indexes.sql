-- Indexes for the account API.
-- Reuse detection looks up spent refresh tokens by hash (the primary key); deleting a session cascades to its spent
-- tokens, which needs an index on session_id.
CREATE INDEX IF NOT EXISTS session_used_tokens_session_idx ON session_used_tokens(session_id);
-- E-mails are stored lower-cased; this makes 'A@x.io' and 'a@x.io' one account even for a writer that forgets to.
CREATE UNIQUE INDEX IF NOT EXISTS users_email_lower_idx ON users (lower(email));
-- The audit trail is read newest first.
CREATE INDEX IF NOT EXISTS audit_log_created_idx ON audit_log(created_at DESC);
