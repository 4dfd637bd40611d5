/**
 * What a file really is, from its first bytes. Names and declared types come from the client
 * and prove nothing: a text file named cover.jpg is not an image, and a PNG named .pdf is a
 * PNG. Each kind lists the extensions (FileRule.types) it satisfies, the most specific first.
 *
 * Office documents are ZIP archives told apart by the names of their entries: a Word file has
 * `word/...`, PowerPoint `ppt/...`, Excel `xl/...`; OpenDocument files start with an entry
 * `mimetype` holding their type, uncompressed. Writers put those entries at the front (after
 * `[Content_Types].xml` and `_rels/.rels`, a few hundred bytes), so the first SNIFF_BYTES
 * hold them; a ZIP with none of them is only a ZIP.
 *
 * Not the file-type package: from the same first bytes it calls a Word file whose
 * `[Content_Types].xml` comes after its `word/` entries (some writers put it last) a plain
 * ZIP, which a document field refuses; it refuses a PNG signature without an IHDR chunk and an
 * ID3 tag that is not followed by MPEG frames; and it takes `GIF` and `%PDF` without their
 * versions. The rules below are exactly what each upload field accepts.
 */

/** How many leading bytes detectKind needs. */
export const SNIFF_BYTES = 8192;

const bytesAt = (head: Uint8Array, offset: number, expected: readonly number[]) =>
  expected.every((b, i) => head[offset + i] === b);
const textAt = (head: Uint8Array, offset: number, text: string) =>
  bytesAt(
    head,
    offset,
    [...text].map((ch) => ch.charCodeAt(0)),
  );
const ascii = (head: Uint8Array, from: number, to: number) =>
  String.fromCharCode(...head.subarray(from, Math.min(to, head.length)));

const ZIP_ENTRY = [0x50, 0x4b, 0x03, 0x04];

/** The names of the ZIP entries whose local headers lie in the head, in order. */
function zipEntries(head: Uint8Array): { name: string; dataAt: number }[] {
  const entries: { name: string; dataAt: number }[] = [];
  for (let i = 0; i + 30 <= head.length; i++) {
    if (!bytesAt(head, i, ZIP_ENTRY)) continue;
    const nameLength = head[i + 26] | (head[i + 27] << 8);
    const extraLength = head[i + 28] | (head[i + 29] << 8);
    if (i + 30 + nameLength > head.length) break;
    entries.push({
      name: ascii(head, i + 30, i + 30 + nameLength),
      dataAt: i + 30 + nameLength + extraLength,
    });
    // The entry's data follows; the next header is found by its signature.
    i += 29 + nameLength;
  }
  return entries;
}

const OOXML: readonly [folder: string, ext: string][] = [
  ['word/', 'docx'],
  ['ppt/', 'pptx'],
  ['xl/', 'xlsx'],
];
const ODF: readonly [mime: string, ext: string][] = [
  ['application/vnd.oasis.opendocument.text', 'odt'],
  ['application/vnd.oasis.opendocument.presentation', 'odp'],
  ['application/vnd.oasis.opendocument.spreadsheet', 'ods'],
];

/** An office document's extension from its ZIP entries, or null. */
function officeKind(head: Uint8Array): string | null {
  const entries = zipEntries(head);
  const first = entries[0];
  if (first?.name === 'mimetype') {
    const mime = ascii(head, first.dataAt, first.dataAt + 60);
    // The longest type first: "...text" is a prefix of "...text-template" too.
    return ODF.find(([type]) => mime.startsWith(type))?.[1] ?? null;
  }
  for (const { name } of entries) {
    const found = OOXML.find(([folder]) => name.startsWith(folder));
    if (found) return found[1];
  }
  return null;
}

/** ISO base media brands that are pictures (HEIF, AVIF) or QuickTime, not an MP4 video. */
const NOT_VIDEO_BRANDS = ['heic', 'heix', 'hevc', 'hevx', 'mif1', 'msf1', 'avif', 'avis', 'qt  '];

const KINDS: readonly { exts: (head: Uint8Array) => readonly string[] | null }[] = [
  { exts: (h) => (bytesAt(h, 0, [0xff, 0xd8, 0xff]) ? ['jpg', 'jpeg'] : null) },
  { exts: (h) => (bytesAt(h, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) ? ['png'] : null) },
  { exts: (h) => (textAt(h, 0, 'GIF87a') || textAt(h, 0, 'GIF89a') ? ['gif'] : null) },
  { exts: (h) => (textAt(h, 0, '%PDF-') ? ['pdf'] : null) },
  // An ID3 tag, or straight into an MPEG audio frame (11 sync bits set).
  { exts: (h) => (textAt(h, 0, 'ID3') || (h[0] === 0xff && (h[1] & 0xe0) === 0xe0) ? ['mp3'] : null) },
  // ISO base media: a box size, then 'ftyp' and a brand that is a video's.
  {
    exts: (h) =>
      textAt(h, 4, 'ftyp') && h.length >= 12 && !NOT_VIDEO_BRANDS.includes(ascii(h, 8, 12)) ? ['mp4'] : null,
  },
  // A ZIP: an office document where its entries say so (also acceptable as a plain zip).
  {
    exts: (h) => {
      if (!bytesAt(h, 0, ZIP_ENTRY)) return null;
      const office = officeKind(h);
      return office ? [office, 'zip'] : ['zip'];
    },
  },
];

/** The extensions the content may carry, most specific first; empty when it is none of the known kinds. */
export function detectKind(head: Uint8Array): readonly string[] {
  for (const kind of KINDS) {
    const exts = kind.exts(head);
    if (exts) return exts;
  }
  return [];
}

const DETECTABLE = [
  'jpg',
  'jpeg',
  'png',
  'gif',
  'pdf',
  'mp3',
  'mp4',
  'zip',
  ...OOXML.map(([, e]) => e),
  ...ODF.map(([, e]) => e),
];

/** Whether an allowed type can be recognised at all (checked against descriptions at start). */
export const canDetect = (ext: string) => DETECTABLE.includes(ext);

export const IMAGE_TYPES: readonly string[] = ['jpg', 'jpeg', 'png', 'gif'];
