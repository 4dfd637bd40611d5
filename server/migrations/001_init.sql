-- Initial schema: accounts and sessions, stored idempotent replies, change tracking, classes.

CREATE TABLE admins (
  id serial PRIMARY KEY,
  username text NOT NULL UNIQUE,
  -- scrypt$N$r$p$salt$hash (server/auth/password.ts); never the password itself.
  password_hash text NOT NULL
);

-- Only the sha256 of the cookie's token is stored: a leaked table cannot be replayed as cookies.
CREATE TABLE sessions (
  token_hash text PRIMARY KEY,
  admin_id integer NOT NULL REFERENCES admins (id) ON DELETE CASCADE,
  expires_at timestamptz NOT NULL
);

-- One row per Idempotency-Key: claimed and filled in the same transaction as the write it
-- answers, so a committed row always holds the reply (server/http/idempotency.ts).
CREATE TABLE idempotency_keys (
  key text PRIMARY KEY,
  method_path text NOT NULL,
  status integer NOT NULL DEFAULT 0,
  reply jsonb,
  created_at timestamptz NOT NULL DEFAULT now()
);

-- Change tracking for delta pulls. Every insert or update of a tracked row takes the next
-- value of ONE global sequence as its rev; every delete leaves a tombstone with its own rev.
CREATE SEQUENCE change_seq;

CREATE TABLE tombstones (
  entity_table text NOT NULL,
  id bigint NOT NULL,
  rev bigint NOT NULL,
  -- Ids come from serial columns and are never reused, so one tombstone per id suffices.
  PRIMARY KEY (entity_table, id)
);
CREATE INDEX tombstones_rev ON tombstones (entity_table, rev);

-- The advisory lock key shared by writers (in track_change) and delta readers
-- (server/entities/delta.ts); a function so that the number is written once.
CREATE FUNCTION change_lock_key() RETURNS bigint LANGUAGE sql IMMUTABLE AS 'SELECT 7246002::bigint';

-- Generic row trigger; its one argument is the table's key column. The shared advisory lock
-- is held by every writing transaction until it ends, so a delta reader that takes the lock
-- exclusively waits until no write with an uncommitted rev is in flight (see delta.ts).
CREATE FUNCTION track_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock_shared(change_lock_key());
  IF TG_OP = 'DELETE' THEN
    INSERT INTO tombstones (entity_table, id, rev)
    VALUES (TG_TABLE_NAME, (to_jsonb(OLD) ->> TG_ARGV[0])::bigint, nextval('change_seq'))
    ON CONFLICT (entity_table, id) DO UPDATE SET rev = EXCLUDED.rev;
    RETURN OLD;
  END IF;
  NEW.rev := nextval('change_seq');
  RETURN NEW;
END
$$;

CREATE TABLE classes (
  class_id serial PRIMARY KEY,
  class_name text NOT NULL,
  sort_order integer NOT NULL DEFAULT 0,
  rev bigint NOT NULL DEFAULT 0
);
CREATE INDEX classes_rev ON classes (rev);
CREATE TRIGGER classes_track BEFORE INSERT OR UPDATE OR DELETE ON classes
  FOR EACH ROW EXECUTE FUNCTION track_change('class_id');
