-- Each file field keeps, beside the generated name it is stored under, the name the file had
-- on the administrator's device (src/contract/original-file-name.ts): column `<field>_name`.
-- Files stored before have none, and show by their stored name.
ALTER TABLE teachers ADD COLUMN profile_pic_name text;
ALTER TABLE students ADD COLUMN profile_pic_name text;
ALTER TABLE schools ADD COLUMN school_logo_name text;
ALTER TABLE books ADD COLUMN book_cover_name text;
ALTER TABLE chapters ADD COLUMN chapter_image_name text;
ALTER TABLE questions ADD COLUMN question_image_name text;
ALTER TABLE book_pages ADD COLUMN image_path_name text;
ALTER TABLE content_images ADD COLUMN image_name text;
ALTER TABLE library_resources
  ADD COLUMN document_file_name text,
  ADD COLUMN video_file_name text,
  ADD COLUMN audio_file_name text,
  ADD COLUMN interactivities_file_name text,
  ADD COLUMN addnworksheets_file_name text,
  ADD COLUMN addnactivities_file_name text,
  ADD COLUMN answerkeys_file_name text,
  ADD COLUMN thumb_image_name text;
