/**
 * What the device knows of our extensions on its server (operations the PHP API lacks): a
 * whole extension entity (Terms, content images: a 404 to its read at a pull) or an entity's
 * extension operations (question edit: asked of the server before the screen offers it). Kept
 * in meta, so the window's screens and the service worker agree, and a device offline still
 * knows what its server could not take: screens say so instead of queueing changes that could
 * never be sent.
 */
import type { LocalDb } from './database';

const KNOWN = 'extensions';

/** By entity name: true, the server has its extension; false, it has not. Absent: not known yet. */
export async function knownExtensions(db: LocalDb): Promise<Record<string, boolean>> {
  const value = (await db.meta.get(KNOWN))?.value;
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, boolean>)
    : {};
}

/** The entities whose extension the server was found to lack. */
export async function missingExtensions(db: LocalDb): Promise<string[]> {
  return Object.entries(await knownExtensions(db))
    .filter(([, present]) => !present)
    .map(([name]) => name)
    .sort();
}

/** Records whether the server has the extension of entity `name`. */
export async function markExtension(db: LocalDb, name: string, present: boolean): Promise<void> {
  await db.transaction('rw', db.meta, async () => {
    const known = await knownExtensions(db);
    if (known[name] === present) return;
    await db.meta.put({ key: KNOWN, value: { ...known, [name]: present } });
  });
}
