/**
 * The name a file had on the administrator's device ('Big Teacher Guide.pdf'), kept beside the
 * name the server stores it under (a generated one: server/uploads/store.ts), so that forms,
 * downloads and the audit trail speak of the file the administrator chose. Our server reads it
 * from the multipart part's filename, or from a resumable upload's `filename` metadata, and
 * keeps it in the column `<field>_name`; a row from a server that keeps none simply lacks it.
 */

/** The column beside file field `field` that holds its original name. */
export const originalNameColumn = (field: string): string => `${field}_name`;

/** The query parameter of an upload's URL that asks for it to be served under that name. */
export const ORIGINAL_NAME_PARAM = 'name';

/** Longer names are cut at an extension-keeping length (file systems allow 255). */
export const ORIGINAL_NAME_MAX = 255;

/** Characters no file name should carry: controls (a header or a log line must not break on them). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters to drop
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/**
 * A name as a device sent it, made safe to keep and show: its last path part (old browsers sent
 * `C:\fakepath\x.pdf`), without control characters, trimmed, at most ORIGINAL_NAME_MAX
 * characters with its extension kept; null when nothing is left, or for the placeholder a
 * browser gives a Blob without a name.
 */
export function cleanOriginalName(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const base = raw.replace(CONTROL, '').split(/[\\/]/).at(-1)?.trim() ?? '';
  if (base === '' || base === 'blob' || base === '.' || base === '..') return null;
  const chars = Array.from(base);
  if (chars.length <= ORIGINAL_NAME_MAX) return base;
  const dot = base.lastIndexOf('.');
  const ext = dot > 0 ? Array.from(base.slice(dot)) : [];
  const keep = ext.length < 16 ? ext : [];
  return chars.slice(0, ORIGINAL_NAME_MAX - keep.length).join('') + keep.join('');
}
