-- Schools, teachers, students (spec §3) and the books assigned to each (api-contract §3.12).
-- Passwords are scrypt hashes (server/auth/password.ts), never returned. Locations keep the
-- legacy values: the country's ISO2 code, the state's code, the city's name. A school cannot
-- be deleted while teachers or students belong to it (RESTRICT; the server says which).

CREATE TABLE schools (
  school_id serial PRIMARY KEY,
  school_name text NOT NULL,
  school_address text NOT NULL,
  password text NOT NULL,
  email text NOT NULL,
  contact_no text NOT NULL,
  country text NOT NULL,
  state text NOT NULL,
  city text NOT NULL,
  school_logo text,
  status text NOT NULL DEFAULT 'Enabled' CHECK (status IN ('Enabled', 'Disabled')),
  rev bigint NOT NULL DEFAULT 0
);

-- Teacher codes come from a sequence: unique, and never reused after a teacher is deleted.
CREATE SEQUENCE teacher_code_seq;

CREATE TABLE teachers (
  teacher_id serial PRIMARY KEY,
  teacher_name text NOT NULL,
  teacher_code text NOT NULL UNIQUE DEFAULT ('T' || lpad(nextval('teacher_code_seq')::text, 5, '0')),
  email text NOT NULL,
  password text NOT NULL,
  contact_no text NOT NULL,
  school_id integer NOT NULL REFERENCES schools (school_id) ON DELETE RESTRICT,
  country text NOT NULL,
  state text NOT NULL,
  city text NOT NULL,
  zipcode text NOT NULL DEFAULT '',
  profile_pic text,
  date_added timestamptz NOT NULL DEFAULT now(),
  status text NOT NULL DEFAULT 'Enabled' CHECK (status IN ('Enabled', 'Disabled')),
  rev bigint NOT NULL DEFAULT 0
);

CREATE TABLE students (
  student_id serial PRIMARY KEY,
  student_name text NOT NULL,
  email text NOT NULL,
  password text NOT NULL,
  contact_no text NOT NULL,
  school_id integer NOT NULL REFERENCES schools (school_id) ON DELETE RESTRICT,
  -- A class NAME, as the legacy client sends it (api-contract §3.11).
  class_name text NOT NULL DEFAULT '',
  country text NOT NULL,
  state text NOT NULL DEFAULT '',
  city text NOT NULL DEFAULT '',
  zipcode text NOT NULL DEFAULT '',
  profile_pic text,
  status text NOT NULL DEFAULT 'Enabled' CHECK (status IN ('Enabled', 'Disabled')),
  rev bigint NOT NULL DEFAULT 0
);

CREATE INDEX teachers_school_id ON teachers (school_id);
CREATE INDEX students_school_id ON students (school_id);
CREATE INDEX teachers_status ON teachers (status);

-- Books assigned to each: a set per owner, replaced whole. Deleting a book or an owner removes
-- its rows in the same transaction (CASCADE).
CREATE TABLE school_books (
  school_id integer NOT NULL REFERENCES schools (school_id) ON DELETE CASCADE,
  book_id integer NOT NULL REFERENCES books (book_id) ON DELETE CASCADE,
  PRIMARY KEY (school_id, book_id)
);
CREATE TABLE teacher_books (
  teacher_id integer NOT NULL REFERENCES teachers (teacher_id) ON DELETE CASCADE,
  book_id integer NOT NULL REFERENCES books (book_id) ON DELETE CASCADE,
  PRIMARY KEY (teacher_id, book_id)
);
CREATE TABLE student_books (
  student_id integer NOT NULL REFERENCES students (student_id) ON DELETE CASCADE,
  book_id integer NOT NULL REFERENCES books (book_id) ON DELETE CASCADE,
  PRIMARY KEY (student_id, book_id)
);
CREATE INDEX school_books_book_id ON school_books (book_id);
CREATE INDEX teacher_books_book_id ON teacher_books (book_id);
CREATE INDEX student_books_book_id ON student_books (book_id);

-- A change of a set is a change of its owner: the owner takes a new rev (its update fires
-- track_change), so a delta pull brings the owner row with its new set. Arguments: the owner
-- table and its key column (the join table names the owner by the same column).
CREATE FUNCTION touch_owner() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  owner text := (to_jsonb(COALESCE(NEW, OLD)) ->> TG_ARGV[1]);
BEGIN
  EXECUTE format('UPDATE %I SET %I = %I WHERE %I = $1', TG_ARGV[0], TG_ARGV[1], TG_ARGV[1], TG_ARGV[1])
    USING owner::integer;
  RETURN NULL;
END
$$;
CREATE TRIGGER school_books_touch AFTER INSERT OR DELETE ON school_books
  FOR EACH ROW EXECUTE FUNCTION touch_owner('schools', 'school_id');
CREATE TRIGGER teacher_books_touch AFTER INSERT OR DELETE ON teacher_books
  FOR EACH ROW EXECUTE FUNCTION touch_owner('teachers', 'teacher_id');
CREATE TRIGGER student_books_touch AFTER INSERT OR DELETE ON student_books
  FOR EACH ROW EXECUTE FUNCTION touch_owner('students', 'student_id');

-- Change tracking, as for every entity table (001_init.sql).
CREATE INDEX schools_rev ON schools (rev);
CREATE INDEX teachers_rev ON teachers (rev);
CREATE INDEX students_rev ON students (rev);
CREATE TRIGGER schools_track BEFORE INSERT OR UPDATE OR DELETE ON schools
  FOR EACH ROW EXECUTE FUNCTION track_change('school_id');
CREATE TRIGGER teachers_track BEFORE INSERT OR UPDATE OR DELETE ON teachers
  FOR EACH ROW EXECUTE FUNCTION track_change('teacher_id');
CREATE TRIGGER students_track BEFORE INSERT OR UPDATE OR DELETE ON students
  FOR EACH ROW EXECUTE FUNCTION track_change('student_id');
