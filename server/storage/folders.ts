/** Which upload folders exist and which file names are acceptable. */

/** The folders the legacy server uses (api-contract §1 and §7); anything else is refused. */
export const UPLOAD_FOLDERS = [
  'school_logo',
  'teachers',
  'students',
  'book_cover',
  'book_pages',
  'chapter_content',
  'videos',
  'documents',
  'audio',
  'thumbnails',
  'interactivities',
  'addnworksheets',
  'addnactivities',
  'answerkeys',
  'question_image',
  'cms',
] as const;

export type UploadFolder = (typeof UPLOAD_FOLDERS)[number];

export const isUploadFolder = (name: string): name is UploadFolder =>
  (UPLOAD_FOLDERS as readonly string[]).includes(name);

/**
 * People's pictures: served only with a session. Every other folder holds content (covers,
 * pages, chapter media, library files, school logos) that the publisher's student-facing apps
 * load without one, as they do from the legacy server (api-contract §1, §7).
 */
export const PRIVATE_UPLOAD_FOLDERS: readonly UploadFolder[] = ['teachers', 'students'];

export const isPublicUploadFolder = (folder: UploadFolder) => !PRIVATE_UPLOAD_FOLDERS.includes(folder);

/**
 * A stored file name: one path segment, no leading dot, no separators or NUL. Together with
 * the folder whitelist this rules out traversal (`..`, `%2F`, `\`) before the disk is touched.
 */
export const isSafeFileName = (name: string) => /^[A-Za-z0-9_-][A-Za-z0-9._()-]{0,254}$/.test(name);
