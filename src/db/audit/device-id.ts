/**
 * This device's id for the audit trail (src/contract/audit/audit-trail.ts): made once per local store and
 * kept in its meta, so the window and the service worker, which share the store, say the same
 * device. Random, not a secret: it tells the server's trail which changes came from one tablet.
 */
import type { LocalDb } from '../database';
import { newUuid } from '../ids';

const DEVICE_ID = 'deviceId';

export async function deviceId(db: LocalDb): Promise<string> {
  // Read first without a write lock: every replay asks, and the id is made only once.
  const known = (await db.meta.get(DEVICE_ID))?.value;
  if (typeof known === 'string') return known;
  return db.transaction('rw', db.meta, async () => {
    const kept = (await db.meta.get(DEVICE_ID))?.value;
    if (typeof kept === 'string') return kept;
    const made = newUuid();
    await db.meta.put({ key: DEVICE_ID, value: made });
    return made;
  });
}
