-- A search of one or two characters matches most of a table, so it is counted by reading every
-- row's searched text. These indexes hold each row's key and that text, in key order (a list's
-- default order): the count and the pages of such a search read the index alone, not the
-- table (server/entities/search.ts). content_images needs none: its key is its text.
CREATE INDEX book_pages_search_keys ON book_pages (page_id) INCLUDE (page_title);
CREATE INDEX books_search_keys ON books (book_id) INCLUDE (book_name);
CREATE INDEX chapters_search_keys ON chapters (chapter_id) INCLUDE (chapter_title);
CREATE INDEX classes_search_keys ON classes (class_id) INCLUDE (class_name);
CREATE INDEX library_resources_search_keys ON library_resources (resource_id) INCLUDE (resource_title);
CREATE INDEX questions_search_keys ON questions (id) INCLUDE (question_title);
CREATE INDEX resource_types_search_keys ON resource_types (id) INCLUDE (title);
CREATE INDEX schools_search_keys ON schools (school_id) INCLUDE (school_name);
CREATE INDEX sections_search_keys ON sections (section_id) INCLUDE (section_name);
CREATE INDEX series_search_keys ON series (series_id) INCLUDE (series_name);
CREATE INDEX students_search_keys ON students (student_id) INCLUDE (student_name);
CREATE INDEX subjects_search_keys ON subjects (subject_id) INCLUDE (subject_name);
CREATE INDEX teachers_search_keys ON teachers (teacher_id) INCLUDE (teacher_name);
CREATE INDEX units_search_keys ON units (unit_id) INCLUDE (unit_title);
