-- The calls a job was counted as at its admission (issue 27): its run gives them back when the server fails it, as a
-- synchronous call's are given back. Empty: nothing to give back from the run (a synchronous call handed to a worker
-- is given back by the node that answers it).
ALTER TABLE jobs ADD COLUMN limit_receipts jsonb NOT NULL DEFAULT '[]'::jsonb;
