-- Search grams, part two: writes log their search texts and the grams are counted
-- later, in bulk; the counts are kept per bucket of 1,024 keys, so a page deep inside a short
-- search starts from its bucket (server/entities/short-search.ts, gram-log.ts).
--
-- Why a log: 015's triggers cut every written row's texts into grams and inserted a count
-- per gram (about 40 rows for a name) at every write statement. A batch of 100 single-row
-- writes in one transaction (the outbox's batch) cost 2.0-2.6x its database CPU with them
-- (PGlite, classes: median 116-157 ms against 56-65 ms without; the drain fell from 7x a Workbox
-- replay to 4.6x). Now a write statement inserts one log row per row whose search texts it
-- set (+1 with the new texts, -1 with the old ones): its cost is that of no gram counting at
-- all (55-67 ms in the same runs). A reader counts the log's rows holding the search beside
-- the merged counts, in the same statement (one snapshot), so totals stay exact at any
-- moment; the log is merged into search_grams by merge_search_grams (one statement that
-- deletes the rows it counts, so a row is never lost nor counted twice): after a list request
-- that found it long, and every few minutes by the server's upkeep (server/app.ts), so a
-- table written heavily and never searched does not pile it up.
CREATE TABLE search_gram_log (
  entity_table text NOT NULL,
  bucket integer NOT NULL,
  s smallint NOT NULL,
  v text[] NOT NULL
);
CREATE INDEX search_gram_log_table ON search_gram_log (entity_table, bucket);

-- Counts per bucket of 1,024 keys (key / 1024; 0 for a table not keyed by an integer).
ALTER TABLE search_grams ADD COLUMN bucket integer NOT NULL DEFAULT 0;
DROP INDEX search_grams_gram;
CREATE INDEX search_grams_gram ON search_grams (entity_table, gram, bucket);

-- TRUNCATE empties the table, its grams and its log.
CREATE OR REPLACE FUNCTION count_grams_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM search_grams WHERE entity_table = TG_TABLE_NAME;
  DELETE FROM search_gram_log WHERE entity_table = TG_TABLE_NAME;
  RETURN NULL;
END
$$;

-- Merges `tbl`'s log into search_grams: one row per (gram, bucket) it changed. SKIP LOCKED:
-- two merges never wait for each other (each takes the rows the other has not).
CREATE FUNCTION merge_search_grams(tbl text) RETURNS void LANGUAGE sql AS $$
  WITH logged AS (
    DELETE FROM search_gram_log
     WHERE ctid IN (SELECT ctid FROM search_gram_log WHERE entity_table = tbl FOR UPDATE SKIP LOCKED)
    RETURNING bucket, s, v)
  INSERT INTO search_grams (entity_table, gram, bucket, n)
  SELECT tbl, grams.g, l.bucket, sum(l.s)
    FROM logged l,
         LATERAL (SELECT DISTINCT substr(x, i, len) AS g
                    FROM unnest(l.v) AS u(txt), lower(u.txt) AS x, generate_series(1, 3) AS len,
                         generate_series(1, char_length(x) - len + 1) AS i) grams
   GROUP BY grams.g, l.bucket
  HAVING sum(l.s) <> 0
$$;

-- Counts a table's search grams afresh, per bucket, and makes its trigger function (the one
-- 015's triggers call, created or replaced) log texts instead of counting grams. The same
-- arguments as 015's count_grams_of, which now calls it: a migration that adds an entity with
-- a search still calls count_grams_of.
CREATE FUNCTION log_grams_of(tbl text, key text, fields text[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  texts_of text := (SELECT string_agg(format('%%1$s.%I::text', f), ', ') FROM unnest(fields) f);
  changed text := (SELECT string_agg(format('o.%1$I IS DISTINCT FROM r.%1$I', f), ' OR ') FROM unnest(fields) f);
  numbered boolean := (SELECT a.atttypid IN ('int2'::regtype, 'int4'::regtype, 'int8'::regtype)
                         FROM pg_attribute a WHERE a.attrelid = tbl::regclass AND a.attname = key);
  bucket_of text := CASE WHEN numbered THEN format('(%%1$s.%I / 1024)::int', key) ELSE '0' END;
  log text := 'INSERT INTO search_gram_log (entity_table, bucket, s, v) %s';
BEGIN
  DELETE FROM search_grams WHERE entity_table = tbl;
  DELETE FROM search_gram_log WHERE entity_table = tbl;
  EXECUTE format(
    'INSERT INTO search_grams (entity_table, gram, bucket, n)
     SELECT %L, g, %s, count(*) FROM %I t, %s GROUP BY 2, 3',
    tbl, format(bucket_of, 't'), tbl, grams_of_row_sql(format('ARRAY[%s]', format(texts_of, 't'))));
  EXECUTE format(
    'CREATE OR REPLACE FUNCTION %I() RETURNS trigger LANGUAGE plpgsql AS %L', tbl || '_count_grams',
    format(
      'BEGIN
         IF TG_OP = ''INSERT'' THEN %s;
         ELSIF TG_OP = ''DELETE'' THEN %s;
         ELSE %s;
         END IF;
         RETURN NULL;
       END',
      format(log, format('SELECT %L, %s, 1, ARRAY[%s] FROM new_rows r', tbl, format(bucket_of, 'r'), format(texts_of, 'r'))),
      format(log, format('SELECT %L, %s, -1, ARRAY[%s] FROM old_rows o', tbl, format(bucket_of, 'o'), format(texts_of, 'o'))),
      format(log, format(
        'SELECT %1$L, %2$s, 1, ARRAY[%3$s] FROM new_rows r JOIN old_rows o USING (%6$I) WHERE %7$s
         UNION ALL
         SELECT %1$L, %4$s, -1, ARRAY[%5$s] FROM old_rows o JOIN new_rows r USING (%6$I) WHERE %7$s',
        tbl, format(bucket_of, 'r'), format(texts_of, 'r'), format(bucket_of, 'o'), format(texts_of, 'o'),
        key, changed))));
END
$$;

-- 015's function, for the entities that come later: the triggers, then the log and the counts.
CREATE OR REPLACE FUNCTION count_grams_of(tbl text, key text, fields text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM log_grams_of(tbl, key, fields);
  EXECUTE format(
    'CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows
       FOR EACH STATEMENT EXECUTE FUNCTION %I()', tbl || '_grams_in', tbl, tbl || '_count_grams');
  EXECUTE format(
    'CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
       FOR EACH STATEMENT EXECUTE FUNCTION %I()', tbl || '_grams_change', tbl, tbl || '_count_grams');
  EXECUTE format(
    'CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows
       FOR EACH STATEMENT EXECUTE FUNCTION %I()', tbl || '_grams_out', tbl, tbl || '_count_grams');
  EXECUTE format(
    'CREATE TRIGGER %I AFTER TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION count_grams_truncated()',
    tbl || '_grams_truncate', tbl);
END
$$;

-- Every entity 015 counts (their triggers stay; their functions now log).
SELECT log_grams_of('book_pages', 'page_id', ARRAY['page_title']);
SELECT log_grams_of('books', 'book_id', ARRAY['book_name']);
SELECT log_grams_of('chapters', 'chapter_id', ARRAY['chapter_title']);
SELECT log_grams_of('classes', 'class_id', ARRAY['class_name']);
SELECT log_grams_of('content_images', 'image', ARRAY['image']);
SELECT log_grams_of('library_resources', 'resource_id', ARRAY['resource_title']);
SELECT log_grams_of('questions', 'id', ARRAY['question_title']);
SELECT log_grams_of('resource_types', 'id', ARRAY['title']);
SELECT log_grams_of('schools', 'school_id', ARRAY['school_name']);
SELECT log_grams_of('sections', 'section_id', ARRAY['section_name']);
SELECT log_grams_of('series', 'series_id', ARRAY['series_name']);
SELECT log_grams_of('students', 'student_id', ARRAY['student_name']);
SELECT log_grams_of('subjects', 'subject_id', ARRAY['subject_name']);
SELECT log_grams_of('teachers', 'teacher_id', ARRAY['teacher_name']);
SELECT log_grams_of('units', 'unit_id', ARRAY['unit_title']);
