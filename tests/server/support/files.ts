/**
 * Small files for upload tests: the real signature of each kind followed by zero padding up
 * to the size asked for, which is all the server's content check reads.
 */
import type { FileStorage } from '../../../server/storage';
import type { UploadFolder } from '../../../server/storage/folders';

const HEADS = {
  png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  jpg: [0xff, 0xd8, 0xff, 0xe0],
  gif: [...'GIF89a'].map((c) => c.charCodeAt(0)),
  pdf: [...'%PDF-1.7\n'].map((c) => c.charCodeAt(0)),
  text: [...'just some text, not an image\n'].map((c) => c.charCodeAt(0)),
  mp3: [...'ID3'].map((c) => c.charCodeAt(0)).concat([3, 0, 0, 0, 0, 0]),
  mp4: [0, 0, 0, 0x18, ...[...'ftypmp42'].map((c) => c.charCodeAt(0))],
  docx: zipHead('word/document.xml'),
  pptx: zipHead('ppt/presentation.xml'),
  zip: zipHead('index.html'),
} as const;

/** The local header of a ZIP archive's first entry, named `name` (what the content check reads). */
export function zipHead(name: string): number[] {
  const header = new Array(30).fill(0);
  header.splice(0, 4, 0x50, 0x4b, 0x03, 0x04);
  header[26] = name.length & 0xff;
  header[27] = name.length >> 8;
  return [...header, ...[...name].map((c) => c.charCodeAt(0))];
}

export type SampleKind = keyof typeof HEADS;

export const MB = 1024 * 1024;

/** A file whose content is `kind`, whatever its `name` says. */
export function sampleFile(kind: SampleKind, name: string, size = 256): File {
  const bytes = new Uint8Array(Math.max(size, HEADS[kind].length));
  bytes.set(HEADS[kind]);
  return new File([bytes], name, { type: 'application/octet-stream' });
}

/** The stored files of one upload folder, sorted (none when the folder does not exist yet). */
export const storedFiles = (storage: FileStorage, folder: UploadFolder): Promise<string[]> =>
  storage.list(folder);

/** A stored file's bytes, or null when there is no such file. */
export async function storedBytes(storage: FileStorage, folder: UploadFolder, name: string) {
  const file = await storage.open(folder, name);
  return file && new Uint8Array(await new Response(await file.stream()).arrayBuffer());
}

/** FormData from plain values; File values go as files. */
export function form(fields: Record<string, string | number | File>): FormData {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.set(k, v instanceof File ? v : String(v));
  return data;
}

/**
 * Add Chapter's text fields (the original front-end's names) for a chapter of the demo tree's
 * first book, without section or unit: the record most upload tests attach their files to.
 */
export const chapterFields = (chapterName: string) => ({
  selectedClass: 1,
  selectedSubject: 1,
  selectedSeries: 1,
  selectedBook: 1,
  selectedSection: '',
  selectedUnit: '',
  chapterName,
  chapterDescription: '',
});
