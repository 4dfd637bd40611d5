-- The audit trail: one row per applied change, written in the same transaction as
-- the change by the write pipeline (server/audit/). Nothing here refers to other tables: an
-- entry outlives the record it describes and the account that made it, so the administrator's
-- username is kept as it was then beside their id.
CREATE TABLE audit_log (
  -- The order of application (inserted last in each transaction, just before its commit),
  -- and the keyset cursor of GET audit: newest first is id DESC.
  id bigserial PRIMARY KEY,
  -- When the server applied the change.
  at timestamptz NOT NULL DEFAULT statement_timestamp(),
  -- When the change was made on the device (its outbox entry's creation time); NULL when the
  -- client did not say (the original front-end) or said something that is not a sane time.
  made_at timestamptz,
  admin_id integer,
  admin text,
  -- The device id the client sends (X-Device-Id): random, not a secret, one per local store.
  device text,
  -- The entity as the API's lists name it (its table: classes, students, book_pages).
  entity text NOT NULL,
  record_id text NOT NULL,
  op text NOT NULL CHECK (op IN ('add', 'update', 'delete', 'toggle', 'assign', 'upload')),
  -- {"field": [old, new]}, by the API's field names; secrets as "[hidden]".
  changes jsonb NOT NULL DEFAULT '{}'
);
-- One per filter of GET audit, each ending in id so that the newest-first page is an index
-- range; `at` also serves the retention pruning.
CREATE INDEX audit_log_record ON audit_log (entity, record_id, id);
CREATE INDEX audit_log_entity ON audit_log (entity, id);
CREATE INDEX audit_log_admin ON audit_log (admin, id);
CREATE INDEX audit_log_at ON audit_log (at);
