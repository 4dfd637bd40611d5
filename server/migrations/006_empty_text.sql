-- Optional text is stored and returned as '' when empty, as the PHP server does (not NULL):
-- the original client puts a NULL it loaded into its form data as the text "null" and sends
-- it back, so an unchanged save would otherwise change the record. Refs and file
-- names stay NULL when empty.
UPDATE books SET activity_folder_name = '' WHERE activity_folder_name IS NULL;
UPDATE books SET file_to_access = '' WHERE file_to_access IS NULL;
UPDATE books SET book_download_link = '' WHERE book_download_link IS NULL;
UPDATE books SET android_download_link = '' WHERE android_download_link IS NULL;
UPDATE books SET book_description = '' WHERE book_description IS NULL;
UPDATE chapters SET chapter_description = '' WHERE chapter_description IS NULL;

ALTER TABLE books
  ALTER COLUMN activity_folder_name SET DEFAULT '',
  ALTER COLUMN activity_folder_name SET NOT NULL,
  ALTER COLUMN file_to_access SET DEFAULT '',
  ALTER COLUMN file_to_access SET NOT NULL,
  ALTER COLUMN book_download_link SET DEFAULT '',
  ALTER COLUMN book_download_link SET NOT NULL,
  ALTER COLUMN android_download_link SET DEFAULT '',
  ALTER COLUMN android_download_link SET NOT NULL,
  ALTER COLUMN book_description SET DEFAULT '',
  ALTER COLUMN book_description SET NOT NULL;
ALTER TABLE chapters
  ALTER COLUMN chapter_description SET DEFAULT '',
  ALTER COLUMN chapter_description SET NOT NULL;
