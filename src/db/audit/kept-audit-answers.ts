/**
 * The audit trail's answers as this device last had them, one per query, so that the history
 * screen can show what it fetched last when the server cannot be reached. Kept in the
 * `reference` table (read-only lists from the server) under `audit?<query>`; only the most
 * recent few queries are kept, as nothing else ever removes them.
 */
import type { AuditReply } from '../../contract/audit/audit-reply';
import type { LocalDb } from '../database';
import { writeReference } from '../reference-lists';

const PREFIX = 'audit?';
/** Queries kept: the screens an administrator goes back to, not a copy of the trail. */
const KEPT_ANSWERS = 30;

export interface KeptAnswer {
  reply: AuditReply;
  /** When it was fetched (epoch ms). */
  readAt: number;
}

export async function keepAuditAnswer(db: LocalDb, query: string, reply: AuditReply): Promise<void> {
  await db.transaction('rw', db.reference, async () => {
    await writeReference(db, PREFIX + query, [reply]);
    const kept = await db.reference.where('path').startsWith(PREFIX).toArray();
    const old = kept.sort((a, b) => b.readAt - a.readAt).slice(KEPT_ANSWERS);
    await db.reference.bulkDelete(old.map((a) => a.path));
  });
}

export async function readAuditAnswer(db: LocalDb, query: string): Promise<KeptAnswer | null> {
  const found = await db.reference.get(PREFIX + query);
  return found ? { reply: found.items[0] as AuditReply, readAt: found.readAt } : null;
}
