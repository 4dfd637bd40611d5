/**
 * Resumable uploads (our extension, the tus protocol 1.0): a large file travels ahead of its
 * record in chunks to `{API root}/uploads/resumable/`, and the record's multipart request names
 * the finished upload in the file field instead of carrying the file. A server without the
 * endpoint (the PHP API) answers the creation request 404 or 405; the client then sends the
 * file inside the record's request, as the legacy client does.
 */

/** The tus endpoint under the API root (creation is a POST to it, with a trailing slash). */
export const RESUMABLE_PATH = 'uploads/resumable';

/** "A few MB": files above it travel ahead in chunks; below it a file goes inside its request, where a retry costs little. */
export const RESUMABLE_FROM_BYTES = 4 * 1024 * 1024;

/** The largest upload the endpoint accepts; each file field's FileRule decides what it takes. */
export const RESUMABLE_MAX_BYTES = 1024 * 1024 * 1024;

const PREFIX = 'tus:';

/** What a file field carries in place of the file: `tus:<upload id>`. */
export const uploadReference = (uploadId: string) => `${PREFIX}${uploadId}`;

/** Whether a file field's text is meant as a reference (well formed or not). */
export const isUploadReference = (text: string) => text.startsWith(PREFIX);

/** The upload id a file field's text names, or null when the text is no reference. */
export function referencedUpload(text: string): string | null {
  if (!isUploadReference(text)) return null;
  const id = text.slice(PREFIX.length);
  // One path segment of safe characters: the id is a file name on the server.
  return /^[A-Za-z0-9_-]{1,100}$/.test(id) ? id : null;
}
