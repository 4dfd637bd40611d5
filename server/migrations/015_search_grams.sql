-- Lists at scale, part two: the totals of short searches and the pages deep in
-- the key order, without reading most rows (server/entities/list.ts, short-search.ts,
-- key-page.ts).

-- Search grams: for each entity table, how many rows hold each one-, two- and three-character
-- text in (the lower case of) a search field. The list's search is ILIKE '%text%', which
-- PostgreSQL evaluates as lower(field) LIKE lower('%text%'): a row matches a search of one to
-- three characters exactly when lower(text) is one of its grams, so the total of such a search
-- is a sum over a few rows here instead of a count over most of the table (a trigram index
-- cannot serve one or two characters, and a three-character text common in names matches
-- thousands of rows the count would read). Longer searches are rare enough to count from the
-- trigram index (migration 010).
--
-- Writers only ever INSERT changes (+n, -n) here, never update a count: two writers never wait
-- for each other on a common gram ('a', 'e'), and a batch of 100 writes in one transaction does
-- not update the same rows 100 times over (each update of a row leaves a version that the next
-- must walk past until the transaction ends: counters kept per backend and upserted, as
-- row_counts are, made such a batch four times slower). A reader sums a gram's rows and, when
-- they are many, compacts the table's rows into one per gram (server/entities/compact-counts.ts).
CREATE TABLE search_grams (
  entity_table text NOT NULL,
  gram text NOT NULL,
  n bigint NOT NULL
);
CREATE INDEX search_grams_gram ON search_grams (entity_table, gram);

-- A row's grams: every distinct substring of one to three characters of the lower case of its
-- search texts (`v`, an array), as a LATERAL subquery (one small DISTINCT per row measured
-- about twice as fast as one DISTINCT over every (row, gram) pair of the statement).
CREATE FUNCTION grams_of_row_sql(texts text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT format(
    'LATERAL (SELECT DISTINCT substr(x, i, l) AS g
                FROM unnest(%s) AS u(txt), lower(u.txt) AS x, generate_series(1, 3) AS l,
                     generate_series(1, char_length(x) - l + 1) AS i) grams', texts)
$$;

-- TRUNCATE empties the table and its grams.
CREATE FUNCTION count_grams_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM search_grams WHERE entity_table = TG_TABLE_NAME;
  RETURN NULL;
END
$$;

-- Starts counting a table's search grams: its present rows as one row per gram, and AFTER INSERT /
-- UPDATE / DELETE statement triggers running a function made for the table (static SQL, so
-- each backend plans it once: the same statements as dynamic SQL, planned at every write,
-- made a batch of 100 single-row writes several times slower). Transition tables: `new_rows`
-- (insert, update), `old_rows` (update, delete). A row's grams are the union over its search
-- fields, counted once per row; an update counts only the rows whose search fields changed
-- (most updates change other columns), matched by key (keys never change). A migration that
-- adds an entity with a search calls it (ARCHITECTURE.md, "Adding an entity");
-- tests/server/lists/list-search.test.ts fails when a searched table's grams are not counted.
CREATE FUNCTION count_grams_of(tbl text, key text, fields text[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  texts_of text := (SELECT string_agg(format('%%1$s.%I::text', f), ', ') FROM unnest(fields) f);
  changed text := (SELECT string_agg(format('o.%1$I IS DISTINCT FROM r.%1$I', f), ' OR ') FROM unnest(fields) f);
  upsert text := format(
    'INSERT INTO search_grams (entity_table, gram, n)
     SELECT %L, g, d FROM (SELECT g, sum(r.s) AS d FROM (%%s) r, %s GROUP BY g) c WHERE d <> 0',
    tbl, replace(grams_of_row_sql('r.v'), '%', '%%'));
  fn text := tbl || '_count_grams';
BEGIN
  EXECUTE format(
    'INSERT INTO search_grams (entity_table, gram, n)
     SELECT %L, g, count(*) FROM %I t, %s GROUP BY g',
    tbl, tbl, grams_of_row_sql(format('ARRAY[%s]', format(texts_of, 't'))));
  EXECUTE format(
    'CREATE FUNCTION %I() RETURNS trigger LANGUAGE plpgsql AS %L', fn,
    format(
      'BEGIN
         IF TG_OP = ''INSERT'' THEN %s;
         ELSIF TG_OP = ''DELETE'' THEN %s;
         ELSE %s;
         END IF;
         RETURN NULL;
       END',
      format(upsert, format('SELECT 1 AS s, ARRAY[%s] AS v FROM new_rows r', format(texts_of, 'r'))),
      format(upsert, format('SELECT -1 AS s, ARRAY[%s] AS v FROM old_rows o', format(texts_of, 'o'))),
      format(upsert, format(
        'SELECT 1 AS s, ARRAY[%2$s] AS v FROM new_rows r JOIN old_rows o USING (%1$I) WHERE %4$s
         UNION ALL
         SELECT -1, ARRAY[%3$s] FROM old_rows o JOIN new_rows r USING (%1$I) WHERE %4$s',
        key, format(texts_of, 'r'), format(texts_of, 'o'), changed))));
  EXECUTE format(
    'CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS new_rows
       FOR EACH STATEMENT EXECUTE FUNCTION %I()', tbl || '_grams_in', tbl, fn);
  EXECUTE format(
    'CREATE TRIGGER %I AFTER UPDATE ON %I REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
       FOR EACH STATEMENT EXECUTE FUNCTION %I()', tbl || '_grams_change', tbl, fn);
  EXECUTE format(
    'CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS old_rows
       FOR EACH STATEMENT EXECUTE FUNCTION %I()', tbl || '_grams_out', tbl, fn);
  EXECUTE format(
    'CREATE TRIGGER %I AFTER TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION count_grams_truncated()',
    tbl || '_grams_truncate', tbl);
END
$$;

-- Every entity with a search (its description's `list.search`).
SELECT count_grams_of('book_pages', 'page_id', ARRAY['page_title']);
SELECT count_grams_of('books', 'book_id', ARRAY['book_name']);
SELECT count_grams_of('chapters', 'chapter_id', ARRAY['chapter_title']);
SELECT count_grams_of('classes', 'class_id', ARRAY['class_name']);
SELECT count_grams_of('content_images', 'image', ARRAY['image']);
SELECT count_grams_of('library_resources', 'resource_id', ARRAY['resource_title']);
SELECT count_grams_of('questions', 'id', ARRAY['question_title']);
SELECT count_grams_of('resource_types', 'id', ARRAY['title']);
SELECT count_grams_of('schools', 'school_id', ARRAY['school_name']);
SELECT count_grams_of('sections', 'section_id', ARRAY['section_name']);
SELECT count_grams_of('series', 'series_id', ARRAY['series_name']);
SELECT count_grams_of('students', 'student_id', ARRAY['student_name']);
SELECT count_grams_of('subjects', 'subject_id', ARRAY['subject_name']);
SELECT count_grams_of('teachers', 'teacher_id', ARRAY['teacher_name']);
SELECT count_grams_of('units', 'unit_id', ARRAY['unit_title']);

-- Key buckets: how many rows of each entity table have a key in each run of 1,024 ids, so
-- that a page deep in the key order (most lists' order) starts from its bucket instead of
-- skipping tens of thousands of keys (OFFSET reads every key it skips). Changes are inserted
-- and compacted by readers, as search_grams. Keys are serial integers and never change.
CREATE TABLE key_buckets (
  entity_table text NOT NULL,
  bucket integer NOT NULL,
  n bigint NOT NULL
);
CREATE INDEX key_buckets_bucket ON key_buckets (entity_table, bucket);

CREATE FUNCTION count_keys_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM key_buckets WHERE entity_table = TG_TABLE_NAME;
  RETURN NULL;
END
$$;

-- Starts counting a table's keys: its present rows, one row per bucket, and AFTER INSERT / DELETE
-- statement triggers (transition table `changed`) running a function made for the table
-- (static SQL, as count_grams_of).
CREATE FUNCTION count_keys_of(tbl text, key text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  upsert text := format(
    'INSERT INTO key_buckets (entity_table, bucket, n)
     SELECT %L, %I / 1024, %%s count(*) FROM changed GROUP BY 2',
    tbl, key);
  fn text := tbl || '_count_keys';
BEGIN
  EXECUTE format(
    'INSERT INTO key_buckets (entity_table, bucket, n)
     SELECT %L, %I / 1024, count(*) FROM %I GROUP BY 2', tbl, key, tbl);
  EXECUTE format(
    'CREATE FUNCTION %I() RETURNS trigger LANGUAGE plpgsql AS %L', fn,
    format(
      'BEGIN
         IF TG_OP = ''DELETE'' THEN %s; ELSE %s; END IF;
         RETURN NULL;
       END', format(upsert, '-'), format(upsert, '')));
  EXECUTE format(
    'CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS changed
       FOR EACH STATEMENT EXECUTE FUNCTION %I()', tbl || '_keys_in', tbl, fn);
  EXECUTE format(
    'CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS changed
       FOR EACH STATEMENT EXECUTE FUNCTION %I()', tbl || '_keys_out', tbl, fn);
  EXECUTE format(
    'CREATE TRIGGER %I AFTER TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION count_keys_truncated()',
    tbl || '_keys_truncate', tbl);
END
$$;

-- Every entity table (the tables whose changes are tracked) with an integer key, the key its
-- tracking names (content images are keyed by their file's name: no buckets).
DO $$
DECLARE
  r record;
BEGIN
  FOR r IN
    SELECT DISTINCT c.relname AS tbl,
           convert_from(substring(g.tgargs FROM 1 FOR position('\x00'::bytea IN g.tgargs) - 1), 'UTF8') AS key
      FROM pg_trigger g
      JOIN pg_class c ON c.oid = g.tgrelid
      JOIN pg_proc p ON p.oid = g.tgfoid
     WHERE p.proname = 'track_change' AND NOT g.tgisinternal
     ORDER BY 1
  LOOP
    IF (SELECT a.atttypid FROM pg_attribute a
         WHERE a.attrelid = r.tbl::regclass AND a.attname = r.key) IN ('int2'::regtype, 'int4'::regtype, 'int8'::regtype)
    THEN
      PERFORM count_keys_of(r.tbl, r.key);
    END IF;
  END LOOP;
END
$$;
