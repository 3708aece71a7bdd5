-- A notification is stored as a code and its parameters (issue 30): the bell renders it in its reader's language.
-- The title and message stay, written at creation, for readers that do not know the code.
ALTER TABLE notifications ADD COLUMN code text;
ALTER TABLE notifications ADD COLUMN params jsonb NOT NULL DEFAULT '{}'::jsonb;
