-- Gotenberg's webhook headers (issue 14): a job admitted from a Gotenberg route is delivered the Gotenberg way (the
-- result file itself to callback_url, or {status, message} to its error URL). Null: DocFlow's signed JSON event.
ALTER TABLE jobs ADD COLUMN webhook_format jsonb;
