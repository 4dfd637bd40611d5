-- Lists at scale: a search and a total that do not read every row of a 100,000-row
-- table (server/entities/list.ts).

-- Search: trigram indexes answer the list's case-insensitive substring search (ILIKE
-- '%text%') from the index for any text of three characters or more. pg_trgm ships with
-- PostgreSQL (a trusted extension: the database's owner may create it) and with PGlite
-- (loaded in server/db/pglite.ts).
CREATE EXTENSION IF NOT EXISTS pg_trgm;

-- One per column an entity searches (its description's `list.search`);
-- tests/server/lists/scale.test.ts fails when a searched column has none.
CREATE INDEX book_pages_search ON book_pages USING gin (page_title gin_trgm_ops);
CREATE INDEX books_search ON books USING gin (book_name gin_trgm_ops);
CREATE INDEX chapters_search ON chapters USING gin (chapter_title gin_trgm_ops);
CREATE INDEX classes_search ON classes USING gin (class_name gin_trgm_ops);
CREATE INDEX content_images_search ON content_images USING gin (image gin_trgm_ops);
CREATE INDEX library_resources_search ON library_resources USING gin (resource_title gin_trgm_ops);
CREATE INDEX questions_search ON questions USING gin (question_title gin_trgm_ops);
CREATE INDEX resource_types_search ON resource_types USING gin (title gin_trgm_ops);
CREATE INDEX schools_search ON schools USING gin (school_name gin_trgm_ops);
CREATE INDEX sections_search ON sections USING gin (section_name gin_trgm_ops);
CREATE INDEX series_search ON series USING gin (series_name gin_trgm_ops);
CREATE INDEX students_search ON students USING gin (student_name gin_trgm_ops);
CREATE INDEX subjects_search ON subjects USING gin (subject_name gin_trgm_ops);
CREATE INDEX teachers_search ON teachers USING gin (teacher_name gin_trgm_ops);
CREATE INDEX units_search ON units USING gin (unit_title gin_trgm_ops);

-- Totals: the number of rows of each entity table, kept by statement triggers, so that an
-- unfiltered list's total is a sum over a few rows instead of a count over every row.
--
-- Each writing backend adds to its OWN row (holder = pg_backend_pid()): two transactions never
-- update the same row, so counting adds no lock waits and no deadlocks between writers (one
-- shared row per table would serialise every insert and delete of that table until commit).
-- A row's count is seen with the rows it counts: both commit together. Rows of backends that
-- ended are folded into holder 0 by the list handler (server/entities/row-count.ts) once a
-- table has many; holder 0 is never a backend's pid.
CREATE TABLE row_counts (
  entity_table text NOT NULL,
  holder integer NOT NULL,
  n bigint NOT NULL,
  PRIMARY KEY (entity_table, holder)
);

-- AFTER INSERT and AFTER DELETE statement triggers; both name their transition table `changed`.
CREATE FUNCTION count_rows() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  delta bigint;
BEGIN
  SELECT count(*) INTO delta FROM changed;
  IF TG_OP = 'DELETE' THEN delta := -delta; END IF;
  IF delta <> 0 THEN
    INSERT INTO row_counts (entity_table, holder, n) VALUES (TG_TABLE_NAME, pg_backend_pid(), delta)
    ON CONFLICT (entity_table, holder) DO UPDATE SET n = row_counts.n + EXCLUDED.n;
  END IF;
  RETURN NULL;
END
$$;

-- TRUNCATE empties the table: its count starts again at 0 (TRUNCATE locks the table, so no
-- writer of it is in flight).
CREATE FUNCTION count_rows_truncated() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM row_counts WHERE entity_table = TG_TABLE_NAME;
  INSERT INTO row_counts (entity_table, holder, n) VALUES (TG_TABLE_NAME, 0, 0);
  RETURN NULL;
END
$$;

-- Starts counting a table: its present count as holder 0, and the triggers. A migration that
-- adds an entity table calls it after creating the table (ARCHITECTURE.md, "Adding an entity").
CREATE FUNCTION count_rows_of(tbl text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE format(
    'INSERT INTO row_counts (entity_table, holder, n) SELECT %L, 0, count(*) FROM %I', tbl, tbl);
  EXECUTE format(
    'CREATE TRIGGER %I AFTER INSERT ON %I REFERENCING NEW TABLE AS changed
       FOR EACH STATEMENT EXECUTE FUNCTION count_rows()', tbl || '_count_in', tbl);
  EXECUTE format(
    'CREATE TRIGGER %I AFTER DELETE ON %I REFERENCING OLD TABLE AS changed
       FOR EACH STATEMENT EXECUTE FUNCTION count_rows()', tbl || '_count_out', tbl);
  EXECUTE format(
    'CREATE TRIGGER %I AFTER TRUNCATE ON %I FOR EACH STATEMENT EXECUTE FUNCTION count_rows_truncated()',
    tbl || '_count_truncate', tbl);
END
$$;

-- Every table whose changes are tracked for delta pulls is an entity table.
DO $$
DECLARE
  tbl text;
BEGIN
  FOR tbl IN
    SELECT DISTINCT c.relname FROM pg_trigger g
      JOIN pg_class c ON c.oid = g.tgrelid
      JOIN pg_proc p ON p.oid = g.tgfoid
     WHERE p.proname = 'track_change' AND NOT g.tgisinternal
     ORDER BY c.relname
  LOOP
    PERFORM count_rows_of(tbl);
  END LOOP;
END
$$;
