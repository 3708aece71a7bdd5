-- The last four characters of a key's secret (issue 30): every card showed the same masked prefix, so keys could not
-- be told apart. Four characters of a 32+ character random secret say nothing useful about it; nothing more of the
-- secret is stored. Filled when a key is created or regenerated; keys made before stay NULL (shown without them).
ALTER TABLE api_keys ADD COLUMN key_last_four text;
