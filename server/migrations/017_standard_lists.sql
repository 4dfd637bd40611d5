-- Lists on standard PostgreSQL: a search is ILIKE over the searched columns' trigram GIN
-- indexes (made in 010, pg_trgm), a total is count(*), a page is read from the order's index
-- (server/entities/list.ts). The kept counts of 010, 015 and 016 (row_counts, key_buckets,
-- search_grams and its log) go with their triggers and helpers: each write paid for them, and
-- a search right after a bulk write waited for the log to be merged.

CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- Every trigger running one of those helpers, or a function made by them for its table.
DO $$
DECLARE
  r record;
  made text[] := '{}';
  fn text;
BEGIN
  FOR r IN
    SELECT g.tgname, c.relname, p.proname
      FROM pg_trigger g
      JOIN pg_class c ON c.oid = g.tgrelid
      JOIN pg_proc p ON p.oid = g.tgfoid
     WHERE NOT g.tgisinternal
       AND (p.proname IN ('count_rows', 'count_rows_truncated', 'count_grams_truncated', 'count_keys_truncated')
            OR p.proname IN (c.relname || '_count_grams', c.relname || '_count_keys'))
  LOOP
    EXECUTE format('DROP TRIGGER %I ON %I', r.tgname, r.relname);
    IF r.proname IN (r.relname || '_count_grams', r.relname || '_count_keys') THEN
      made := array_append(made, r.proname);
    END IF;
  END LOOP;
  FOR fn IN SELECT DISTINCT unnest(made) LOOP
    EXECUTE format('DROP FUNCTION %I()', fn);
  END LOOP;
END
$$;

DROP FUNCTION count_rows_of(text);
DROP FUNCTION count_rows();
DROP FUNCTION count_rows_truncated();
DROP FUNCTION count_grams_of(text, text, text[]);
DROP FUNCTION log_grams_of(text, text, text[]);
DROP FUNCTION merge_search_grams(text);
DROP FUNCTION grams_of_row_sql(text);
DROP FUNCTION count_grams_truncated();
DROP FUNCTION count_keys_of(text, text);
DROP FUNCTION count_keys_truncated();
DROP TABLE row_counts, key_buckets, search_grams, search_gram_log;

-- The one line an entity's migration adds to have its changes pulled (delta.ts): a rev from
-- change_seq on every insert and update, a tombstone on every delete (001's track_change), and
-- the index the pull reads the revs by. `key` is the table's key column; the table has a
-- `rev bigint NOT NULL DEFAULT 0` column.
CREATE FUNCTION track_changes(tbl text, key text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON %I (rev)', tbl || '_rev', tbl);
  EXECUTE format(
    'CREATE TRIGGER %I BEFORE INSERT OR UPDATE OR DELETE ON %I FOR EACH ROW EXECUTE FUNCTION track_change(%L)',
    tbl || '_track', tbl, key);
END
$$;
