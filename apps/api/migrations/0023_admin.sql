-- Administration (issue 11): temporary passwords, audit targets, and settings shared by every node (maintenance).
ALTER TABLE users ADD COLUMN must_change_password boolean NOT NULL DEFAULT false;

ALTER TABLE audit_log ADD COLUMN target_type text;
ALTER TABLE audit_log ADD COLUMN target_id text;
ALTER TABLE audit_log ADD COLUMN target_label text;
CREATE INDEX audit_log_target_idx ON audit_log (target_id);

CREATE TABLE system_settings (
  key text PRIMARY KEY,
  value jsonb NOT NULL,
  updated_by uuid,
  updated_at timestamptz NOT NULL DEFAULT now()
);
