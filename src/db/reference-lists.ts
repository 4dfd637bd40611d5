/**
 * Read-only reference lists kept on the device (geography): countries and every state after
 * the first sign-in, a state's cities once its list was opened. Stored by the path they were
 * read from, replaced whole when read again.
 */
import type { LocalDb } from './database';

export async function readReference<T>(db: LocalDb, path: string): Promise<T[] | null> {
  const found = await db.reference.get(path);
  return found ? (found.items as T[]) : null;
}

export async function writeReference(db: LocalDb, path: string, items: unknown[]): Promise<void> {
  await db.reference.put({ path, items, readAt: Date.now() });
}

/** When the list was last read, or null when the device has never had it. */
export async function referenceReadAt(db: LocalDb, path: string): Promise<number | null> {
  return (await db.reference.get(path))?.readAt ?? null;
}
