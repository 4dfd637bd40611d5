/**
 * Small files for upload tests: the real signature of each kind followed by zero padding up
 * to the size asked for, which is all the server's content check reads.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

const HEADS = {
  png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  jpg: [0xff, 0xd8, 0xff, 0xe0],
  gif: [...'GIF89a'].map((c) => c.charCodeAt(0)),
  pdf: [...'%PDF-1.7\n'].map((c) => c.charCodeAt(0)),
  text: [...'just some text, not an image\n'].map((c) => c.charCodeAt(0)),
} as const;

export type SampleKind = keyof typeof HEADS;

export const MB = 1024 * 1024;

/** A file whose content is `kind`, whatever its `name` says. */
export function sampleFile(kind: SampleKind, name: string, size = 256): File {
  const bytes = new Uint8Array(size);
  bytes.set(HEADS[kind].slice(0, size));
  return new File([bytes], name, { type: 'application/octet-stream' });
}

/** The stored files of one upload folder (none when the folder does not exist yet). */
export async function storedFiles(dataDir: string, folder: string): Promise<string[]> {
  return (await readdir(join(dataDir, 'uploads', folder)).catch(() => [])).sort();
}

/** FormData from plain values; File values go as files. */
export function form(fields: Record<string, string | number | File>): FormData {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.set(k, v instanceof File ? v : String(v));
  return data;
}
