-- Per-plan processing settings (issue 13, fair under abuse): whether a page's JavaScript runs in HTML and web page
-- conversions, how long one document may take (the server's PROCESSING_TIMEOUT_MS stays the ceiling), and the plan's
-- weight in sharing the processing slots and queue between users (core/limiter.ts ownerShare: 1 = a quarter of the
-- slots and an eighth of the queue per user, 2 = half of the slots and a quarter of the queue, 4 = half of the queue).

ALTER TABLE plans ADD COLUMN javascript boolean NOT NULL DEFAULT true;
ALTER TABLE plans ADD COLUMN processing_timeout_seconds integer NOT NULL DEFAULT 120
  CHECK (processing_timeout_seconds BETWEEN 1 AND 3600);
ALTER TABLE plans ADD COLUMN processing_weight integer NOT NULL DEFAULT 1 CHECK (processing_weight BETWEEN 1 AND 4);

UPDATE plans SET javascript = false, processing_timeout_seconds = 30, processing_weight = 1,
  features = array_append(features, 'HTML pages printed without their JavaScript, 30 s per document')
  WHERE name = 'free';
UPDATE plans SET javascript = true, processing_timeout_seconds = 120, processing_weight = 2 WHERE name = 'pro';
UPDATE plans SET javascript = true, processing_timeout_seconds = 120, processing_weight = 4 WHERE name = 'enterprise';
