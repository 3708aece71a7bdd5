-- Who made each API key (issue 28): a key an admin made for a user (a custom key) is not the user's own credential,
-- so it reads only the jobs it made itself. Keys the user made carry their own id. Existing standard keys were all
-- made by their user; existing custom keys take the admin named by their creation's audit entry, or stay null
-- (made by an unknown admin): null is never the owner, so such a key stays restricted. ON DELETE SET NULL keeps the
-- key working when its admin leaves, still restricted.
ALTER TABLE api_keys ADD COLUMN created_by uuid REFERENCES users(id) ON DELETE SET NULL;
UPDATE api_keys SET created_by = user_id WHERE key_type = 'standard';
UPDATE api_keys k SET created_by = a.user_id
  FROM audit_log a
  WHERE k.key_type = 'custom' AND a.action = 'admin.key.create' AND a.target_id = k.id::text
    AND EXISTS (SELECT 1 FROM users u WHERE u.id = a.user_id);
