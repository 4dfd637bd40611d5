-- An Idempotency-Key is bound to a fingerprint of the whole request (method, path, query and
-- body; server/http/fingerprint.ts), no longer to its method and path only. Keys stored before
-- keep their "METHOD /path" and are still matched that way. Stored replies are pruned after a
-- retention window (server/http/idempotency.ts), by age.
ALTER TABLE idempotency_keys RENAME COLUMN method_path TO fingerprint;
CREATE INDEX idempotency_keys_created_at ON idempotency_keys (created_at);
