-- Master data: subjects, series, books, sections, units, chapters (spec §3), columns as the
-- entity descriptions name them (src/contract/entities). Every level repeats its ancestors'
-- ids, as the legacy rows do. Parents cannot be deleted while a child names them (RESTRICT);
-- the server checks first so that it can say which children are in the way.
-- Optional text columns here are nullable, but 006_empty_text.sql makes them NOT NULL DEFAULT
-- '': optional text is stored and returned as '' when empty, as the PHP server does. Refs and
-- file columns stay NULL when empty; file columns hold the stored file name under
-- uploads/{folder}/.

CREATE TABLE subjects (
  subject_id serial PRIMARY KEY,
  subject_name text NOT NULL,
  -- HTML from the rich-text editor.
  subject_content text NOT NULL,
  rev bigint NOT NULL DEFAULT 0
);

CREATE TABLE series (
  series_id serial PRIMARY KEY,
  series_name text NOT NULL,
  class_id integer NOT NULL REFERENCES classes (class_id) ON DELETE RESTRICT,
  subject_id integer NOT NULL REFERENCES subjects (subject_id) ON DELETE RESTRICT,
  rev bigint NOT NULL DEFAULT 0
);

CREATE TABLE books (
  book_id serial PRIMARY KEY,
  class_id integer NOT NULL REFERENCES classes (class_id) ON DELETE RESTRICT,
  subject_id integer NOT NULL REFERENCES subjects (subject_id) ON DELETE RESTRICT,
  series_id integer NOT NULL REFERENCES series (series_id) ON DELETE RESTRICT,
  book_name text NOT NULL,
  book_code text NOT NULL,
  activity_folder_name text,
  file_to_access text,
  book_download_link text,
  android_download_link text,
  book_description text,
  book_cover text,
  -- The "popular" flag, changed through togglePopular.php.
  status text NOT NULL DEFAULT 'Disabled' CHECK (status IN ('Enabled', 'Disabled')),
  rev bigint NOT NULL DEFAULT 0
);

CREATE TABLE sections (
  section_id serial PRIMARY KEY,
  class_id integer NOT NULL REFERENCES classes (class_id) ON DELETE RESTRICT,
  subject_id integer NOT NULL REFERENCES subjects (subject_id) ON DELETE RESTRICT,
  series_id integer NOT NULL REFERENCES series (series_id) ON DELETE RESTRICT,
  book_id integer NOT NULL REFERENCES books (book_id) ON DELETE RESTRICT,
  section_name text NOT NULL,
  rev bigint NOT NULL DEFAULT 0
);

CREATE TABLE units (
  unit_id serial PRIMARY KEY,
  class_id integer NOT NULL REFERENCES classes (class_id) ON DELETE RESTRICT,
  subject_id integer NOT NULL REFERENCES subjects (subject_id) ON DELETE RESTRICT,
  series_id integer NOT NULL REFERENCES series (series_id) ON DELETE RESTRICT,
  book_id integer NOT NULL REFERENCES books (book_id) ON DELETE RESTRICT,
  -- Optional: a unit may sit directly under its book.
  section_id integer REFERENCES sections (section_id) ON DELETE RESTRICT,
  unit_title text NOT NULL,
  rev bigint NOT NULL DEFAULT 0
);

CREATE TABLE chapters (
  chapter_id serial PRIMARY KEY,
  class_id integer NOT NULL REFERENCES classes (class_id) ON DELETE RESTRICT,
  subject_id integer NOT NULL REFERENCES subjects (subject_id) ON DELETE RESTRICT,
  series_id integer NOT NULL REFERENCES series (series_id) ON DELETE RESTRICT,
  book_id integer NOT NULL REFERENCES books (book_id) ON DELETE RESTRICT,
  section_id integer REFERENCES sections (section_id) ON DELETE RESTRICT,
  unit_id integer REFERENCES units (unit_id) ON DELETE RESTRICT,
  chapter_title text NOT NULL,
  chapter_description text,
  chapter_image text,
  rev bigint NOT NULL DEFAULT 0
);

-- FK columns: the joins for parents' names, the filters and lookups, and the children check
-- before a delete all search by them.
CREATE INDEX series_class_id ON series (class_id);
CREATE INDEX series_subject_id ON series (subject_id);
CREATE INDEX books_class_id ON books (class_id);
CREATE INDEX books_subject_id ON books (subject_id);
CREATE INDEX books_series_id ON books (series_id);
CREATE INDEX sections_class_id ON sections (class_id);
CREATE INDEX sections_subject_id ON sections (subject_id);
CREATE INDEX sections_series_id ON sections (series_id);
CREATE INDEX sections_book_id ON sections (book_id);
CREATE INDEX units_class_id ON units (class_id);
CREATE INDEX units_subject_id ON units (subject_id);
CREATE INDEX units_series_id ON units (series_id);
CREATE INDEX units_book_id ON units (book_id);
CREATE INDEX units_section_id ON units (section_id);
CREATE INDEX chapters_class_id ON chapters (class_id);
CREATE INDEX chapters_subject_id ON chapters (subject_id);
CREATE INDEX chapters_series_id ON chapters (series_id);
CREATE INDEX chapters_book_id ON chapters (book_id);
CREATE INDEX chapters_section_id ON chapters (section_id);
CREATE INDEX chapters_unit_id ON chapters (unit_id);

-- Change tracking, as for classes (001_init.sql).
CREATE INDEX subjects_rev ON subjects (rev);
CREATE INDEX series_rev ON series (rev);
CREATE INDEX books_rev ON books (rev);
CREATE INDEX sections_rev ON sections (rev);
CREATE INDEX units_rev ON units (rev);
CREATE INDEX chapters_rev ON chapters (rev);
CREATE TRIGGER subjects_track BEFORE INSERT OR UPDATE OR DELETE ON subjects
  FOR EACH ROW EXECUTE FUNCTION track_change('subject_id');
CREATE TRIGGER series_track BEFORE INSERT OR UPDATE OR DELETE ON series
  FOR EACH ROW EXECUTE FUNCTION track_change('series_id');
CREATE TRIGGER books_track BEFORE INSERT OR UPDATE OR DELETE ON books
  FOR EACH ROW EXECUTE FUNCTION track_change('book_id');
CREATE TRIGGER sections_track BEFORE INSERT OR UPDATE OR DELETE ON sections
  FOR EACH ROW EXECUTE FUNCTION track_change('section_id');
CREATE TRIGGER units_track BEFORE INSERT OR UPDATE OR DELETE ON units
  FOR EACH ROW EXECUTE FUNCTION track_change('unit_id');
CREATE TRIGGER chapters_track BEFORE INSERT OR UPDATE OR DELETE ON chapters
  FOR EACH ROW EXECUTE FUNCTION track_change('chapter_id');
