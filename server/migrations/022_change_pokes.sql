-- Every committed change tells the server processes that listen (server/live): track_change
-- notifies channel `changes`. PostgreSQL delivers a notification only when its transaction
-- commits, and folds identical ones of one transaction into one, so a batch of a thousand
-- rows is one notification; PGlite does the same within its process.
CREATE OR REPLACE FUNCTION track_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock_shared(change_lock_key());
  PERFORM pg_notify('changes', '');
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
