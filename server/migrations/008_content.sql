-- Content: book pages, library resources and questions (spec §3), columns as the entity
-- descriptions name them (src/contract/entities/book-page.ts, library-resource.ts,
-- question.ts). Like master data, a parent cannot be deleted while one of these names it
-- (RESTRICT; the server checks first and says which records are in the way): a chapter with
-- pages, resources or questions stays until they are deleted. Optional text is '' when empty;
-- refs and file names are NULL when empty. File columns hold the stored name under
-- uploads/{folder}/ (book_pages, videos, documents, audio, thumbnails, interactivities,
-- addnworksheets, addnactivities, answerkeys, question_image).

CREATE TABLE book_pages (
  page_id serial PRIMARY KEY,
  book_id integer NOT NULL REFERENCES books (book_id) ON DELETE RESTRICT,
  chapter_id integer NOT NULL REFERENCES chapters (chapter_id) ON DELETE RESTRICT,
  page_title text NOT NULL,
  -- Given, or the next after the book's last page (server/entities/add-several.ts).
  page_number integer,
  image_path text,
  rev bigint NOT NULL DEFAULT 0
);

CREATE TABLE library_resources (
  resource_id serial PRIMARY KEY,
  class_id integer NOT NULL REFERENCES classes (class_id) ON DELETE RESTRICT,
  subject_id integer NOT NULL REFERENCES subjects (subject_id) ON DELETE RESTRICT,
  series_id integer NOT NULL REFERENCES series (series_id) ON DELETE RESTRICT,
  book_id integer NOT NULL REFERENCES books (book_id) ON DELETE RESTRICT,
  -- Optional: a resource may be tagged to a whole book.
  chapter_id integer REFERENCES chapters (chapter_id) ON DELETE RESTRICT,
  resource_title text NOT NULL,
  resource_type integer NOT NULL REFERENCES resource_types (id) ON DELETE RESTRICT,
  resource_category text NOT NULL DEFAULT '',
  resource_link text NOT NULL DEFAULT '',
  document_link text NOT NULL DEFAULT '',
  video_link text NOT NULL DEFAULT '',
  video_question text NOT NULL DEFAULT '',
  iframe_link text NOT NULL DEFAULT '',
  notes_content text NOT NULL DEFAULT '',
  audio_link text NOT NULL DEFAULT '',
  interactivities_link text NOT NULL DEFAULT '',
  addnworksheets_link text NOT NULL DEFAULT '',
  addnactivities_link text NOT NULL DEFAULT '',
  answerkeys_link text NOT NULL DEFAULT '',
  lesson_plan_link text NOT NULL DEFAULT '',
  document_file text,
  video_file text,
  audio_file text,
  interactivities_file text,
  addnworksheets_file text,
  addnactivities_file text,
  answerkeys_file text,
  thumb_image text,
  rev bigint NOT NULL DEFAULT 0
);

-- Question codes (question_id, the original's row key) come from a sequence: unique, never reused.
CREATE SEQUENCE question_code_seq;

CREATE TABLE questions (
  id serial PRIMARY KEY,
  question_id text NOT NULL UNIQUE DEFAULT ('Q' || lpad(nextval('question_code_seq')::text, 5, '0')),
  class_id integer NOT NULL REFERENCES classes (class_id) ON DELETE RESTRICT,
  subject_id integer NOT NULL REFERENCES subjects (subject_id) ON DELETE RESTRICT,
  series_id integer NOT NULL REFERENCES series (series_id) ON DELETE RESTRICT,
  book_id integer NOT NULL REFERENCES books (book_id) ON DELETE RESTRICT,
  chapter_id integer NOT NULL REFERENCES chapters (chapter_id) ON DELETE RESTRICT,
  question_type text NOT NULL CHECK (question_type IN ('mcq', 'trueFalse', 'short', 'long', 'match')),
  question_title text NOT NULL,
  mcq_option_1 text NOT NULL DEFAULT '',
  mcq_option_2 text NOT NULL DEFAULT '',
  mcq_option_3 text NOT NULL DEFAULT '',
  mcq_option_4 text NOT NULL DEFAULT '',
  left_match text NOT NULL DEFAULT '',
  right_match text NOT NULL DEFAULT '',
  total_marks integer,
  question_image text,
  question_answer text NOT NULL DEFAULT '',
  rev bigint NOT NULL DEFAULT 0
);

-- FK columns: joins for parents' names, filters, and the children check before a delete.
CREATE INDEX book_pages_book_id ON book_pages (book_id, page_number);
CREATE INDEX book_pages_chapter_id ON book_pages (chapter_id);
CREATE INDEX library_resources_class_id ON library_resources (class_id);
CREATE INDEX library_resources_subject_id ON library_resources (subject_id);
CREATE INDEX library_resources_series_id ON library_resources (series_id);
CREATE INDEX library_resources_book_id ON library_resources (book_id);
CREATE INDEX library_resources_chapter_id ON library_resources (chapter_id);
CREATE INDEX library_resources_resource_type ON library_resources (resource_type);
CREATE INDEX questions_class_id ON questions (class_id);
CREATE INDEX questions_subject_id ON questions (subject_id);
CREATE INDEX questions_series_id ON questions (series_id);
CREATE INDEX questions_book_id ON questions (book_id);
CREATE INDEX questions_chapter_id ON questions (chapter_id);

-- Change tracking, as for classes (001_init.sql).
CREATE INDEX book_pages_rev ON book_pages (rev);
CREATE INDEX library_resources_rev ON library_resources (rev);
CREATE INDEX questions_rev ON questions (rev);
CREATE TRIGGER book_pages_track BEFORE INSERT OR UPDATE OR DELETE ON book_pages
  FOR EACH ROW EXECUTE FUNCTION track_change('page_id');
CREATE TRIGGER library_resources_track BEFORE INSERT OR UPDATE OR DELETE ON library_resources
  FOR EACH ROW EXECUTE FUNCTION track_change('resource_id');
CREATE TRIGGER questions_track BEFORE INSERT OR UPDATE OR DELETE ON questions
  FOR EACH ROW EXECUTE FUNCTION track_change('id');
