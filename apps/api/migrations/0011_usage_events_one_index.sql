-- Every index on usage_events is paid on each metered call; per-key figures come from usage_daily, so the
-- (key_id, created_at) index of 0010 served no query.
DROP INDEX IF EXISTS usage_events_key_idx;
