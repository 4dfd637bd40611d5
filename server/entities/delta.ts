/**
 * Delta pull (design brief §4): rows changed after a cursor, ids deleted after it, and a new
 * cursor. The cursor is a change_seq value; every tracked write takes its rev from that one
 * sequence (migrations/001_init.sql).
 *
 * The danger is a cursor that skips a row: transaction A takes rev 7, B takes rev 8 and
 * commits, a reader sees 8 and returns cursor 8, then A commits rev 7, which no later delta
 * (rev > 8) would ever return. So the cursor must never pass a rev that is still in flight.
 *
 * Our choice: every writing transaction holds a SHARED advisory lock from its first tracked
 * write until it ends (taken in the trigger, so no code path can forget it), and the reader
 * takes the same lock EXCLUSIVELY for its few reads. While the reader holds it, no write is
 * in flight, so every rev up to the sequence's current value is committed and visible; the
 * sequence value read under the lock is therefore a safe cursor. Writers never wait for each
 * other, only briefly for a reader. On PGlite (one connection) transactions are serialised
 * anyway and the lock is always free, which keeps one code path for both engines.
 */
import { listFieldOf } from '../../src/contract/endpoints';
import type { EntityDescription } from '../../src/contract/entity';
import { DELTA_CURSOR_FIELD, DELTA_DELETED_FIELD } from '../../src/contract/wire';
import type { Database } from '../db';
import { rowsSince } from './row-shapes';
import { toWireRow } from './sql';

/** `select` is the entity's row SELECT (select.ts), so delta rows carry parents' names too. */
export async function deltaPull(db: Database, entity: EntityDescription, select: string, since: number) {
  return db.tx(async (q) => {
    await q('SELECT pg_advisory_xact_lock(change_lock_key())');
    // A fresh sequence reports last_value 1 with is_called false: nothing has been written yet.
    const [{ cursor }] = await q<{ cursor: number }>(
      'SELECT CASE WHEN is_called THEN last_value ELSE 0 END AS cursor FROM change_seq',
    );
    // A cursor from before the rows' shape changed gets them all again (row-shapes.ts).
    const from = await rowsSince(q, entity.table, since);
    const rows = await q<Record<string, unknown>>(`${select} WHERE t.rev > $1 ORDER BY t.rev`, [from]);
    const deleted = await q<{ id: number }>(
      'SELECT id FROM tombstones WHERE entity_table = $1 AND rev > $2 ORDER BY rev',
      [entity.table, since],
    );
    return {
      [listFieldOf(entity)]: rows.map((r) => toWireRow(entity, r)),
      [DELTA_DELETED_FIELD]: deleted.map((d) => d.id),
      // Text, so a client never has to care whether it outgrows a JS number.
      [DELTA_CURSOR_FIELD]: String(cursor),
      total: rows.length,
    };
  });
}
