-- An Idempotency-Key belongs to the administrator who sent it: the same key from
-- another administrator is another key, never answered from the first one's stored reply
-- and never refused as "reused", which would tell that it exists. Keys are client-made, so
-- two administrators' devices may pick the same one by accident too.
--
-- Replies stored before this migration carry no administrator: they get admin_id 0, which no
-- administrator has (ids come from a serial). A repeat of the very request such a key was
-- stored for is still answered from it (a tablet that sent before the upgrade and retries
-- after it must not apply its change twice); any other request under it runs as under a new
-- key (server/http/idempotency.ts). They leave with the retention window's pruning.
ALTER TABLE idempotency_keys ADD COLUMN admin_id integer NOT NULL DEFAULT 0;
ALTER TABLE idempotency_keys DROP CONSTRAINT idempotency_keys_pkey;
ALTER TABLE idempotency_keys ADD PRIMARY KEY (admin_id, key);
ALTER TABLE idempotency_keys ALTER COLUMN admin_id DROP DEFAULT;
