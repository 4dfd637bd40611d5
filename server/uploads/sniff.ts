/**
 * What a file really is, from its first bytes. Names and declared types come from the client
 * and prove nothing: a text file named cover.jpg is not an image, and a PNG named .pdf is a
 * PNG. Each kind lists the extensions (FileRule.types) it satisfies.
 */

/** How many leading bytes detectKind needs. */
export const SNIFF_BYTES = 16;

const bytesAt = (head: Uint8Array, offset: number, expected: readonly number[]) =>
  expected.every((b, i) => head[offset + i] === b);
const textAt = (head: Uint8Array, offset: number, text: string) =>
  bytesAt(
    head,
    offset,
    [...text].map((ch) => ch.charCodeAt(0)),
  );

const KINDS: readonly { exts: readonly string[]; test: (head: Uint8Array) => boolean }[] = [
  { exts: ['jpg', 'jpeg'], test: (h) => bytesAt(h, 0, [0xff, 0xd8, 0xff]) },
  { exts: ['png'], test: (h) => bytesAt(h, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) },
  { exts: ['gif'], test: (h) => textAt(h, 0, 'GIF87a') || textAt(h, 0, 'GIF89a') },
  { exts: ['pdf'], test: (h) => textAt(h, 0, '%PDF-') },
  // An ID3 tag, or straight into an MPEG audio frame (11 sync bits set).
  { exts: ['mp3'], test: (h) => textAt(h, 0, 'ID3') || (h[0] === 0xff && (h[1] & 0xe0) === 0xe0) },
  // ISO base media: a box size, then 'ftyp'.
  { exts: ['mp4'], test: (h) => textAt(h, 4, 'ftyp') },
];

/** The extensions the content may carry; empty when it is none of the known kinds. */
export function detectKind(head: Uint8Array): readonly string[] {
  return KINDS.find((k) => k.test(head))?.exts ?? [];
}

/** Whether an allowed type can be recognised at all (checked against descriptions at start). */
export const canDetect = (ext: string) => KINDS.some((k) => k.exts.includes(ext));

export const IMAGE_TYPES: readonly string[] = ['jpg', 'jpeg', 'png', 'gif'];
