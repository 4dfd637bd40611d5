/**
 * Which of our extension entities (`extension` in their descriptions: Terms, content images)
 * the server lacks, as the last pull found out (a 404 to their read). Kept in meta, so the
 * window's screens and the service worker agree, and a device offline still knows what its
 * server cannot take: screens say so instead of queueing changes that could never be sent.
 */
import type { LocalDb } from './database';

const MISSING = 'missingExtensions';

export async function missingExtensions(db: LocalDb): Promise<string[]> {
  const value = (await db.meta.get(MISSING))?.value;
  return Array.isArray(value) ? (value as string[]) : [];
}

/** Records whether the server has the extension entity `name` (it answered its read, or 404). */
export async function markExtension(db: LocalDb, name: string, present: boolean): Promise<void> {
  await db.transaction('rw', db.meta, async () => {
    const missing = new Set(await missingExtensions(db));
    if (present === !missing.has(name)) return;
    if (present) missing.delete(name);
    else missing.add(name);
    await db.meta.put({ key: MISSING, value: [...missing].sort() });
  });
}
