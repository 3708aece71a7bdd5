-- Signing certificates stored once per account (issue 31): the PKCS#12 and its password sealed together with
-- AES-256-GCM (base64) under a key derived from the server's secret (services/signing-certificates/seal.ts), never returned.
-- The columns beside it describe the certificate for its list; the sealed box is bound to its row's id and owner.
CREATE TABLE signing_certificates (
  id uuid PRIMARY KEY,
  user_id uuid NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  label text NOT NULL,
  subject text NOT NULL,
  common_name text,
  issuer text NOT NULL,
  serial_number text NOT NULL,
  valid_from timestamptz NOT NULL,
  valid_to timestamptz NOT NULL,
  sealed text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  last_used_at timestamptz
);
CREATE INDEX signing_certificates_user_idx ON signing_certificates (user_id, created_at);
