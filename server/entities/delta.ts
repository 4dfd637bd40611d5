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
 * takes the same lock EXCLUSIVELY, in a transaction of its own, only to read the sequence.
 * While it holds the lock no write is in flight, so every rev up to the sequence's current
 * value belongs to a transaction that has ended: that value is a SAFE cursor, and any later
 * statement sees every committed row at or below it. Writers never wait for each other, and
 * for a reader only while it reads one sequence value. On PGlite (one connection)
 * transactions are serialised anyway and the lock is always free, which keeps one code path
 * for both engines.
 *
 * Pages: a reply holds at most `limit` changes of the window (since, safe], rows
 * and tombstones together in rev order, and its cursor is the rev of the last change it holds
 * (the safe cursor itself when the window fits). Every change of the window with a rev at or
 * below that cursor is in the page, so the pages of successive calls partition the changes:
 * none is skipped, none repeated. A row changed again meanwhile has a rev above every safe
 * cursor read before, so it comes in a later page with its new values. Rows and tombstones
 * are read in separate statements: a row deleted between them comes now and its tombstone
 * later, which the next page removes. The server holds one page in memory, never the table.
 */
import { listFieldOf } from '../../src/contract/endpoints';
import type { EntityDescription } from '../../src/contract/entity';
import {
  DELTA_CURSOR_FIELD,
  DELTA_DELETED_FIELD,
  DELTA_MORE_FIELD,
  DELTA_REMAINING_FIELD,
} from '../../src/contract/wire';
import type { Database } from '../db';
import type { JsonRows } from './json-rows';
import { type DeltaCursor, deltaCursorText, rowsSince } from './row-shapes';
import { ident } from './sql';

export interface DeltaPage {
  /** At most this many changes (rows and deletions together). */
  limit: number;
  /** Whether to count the changes after the page (`remaining`). */
  count: boolean;
  /** A safe cursor read already (one for every list of a pull of all lists). */
  safe?: number;
}

/** The largest rev that no write in flight can still commit below (see above). */
export async function safeCursor(db: Database): Promise<number> {
  return db.tx(async (q) => {
    await q('SELECT pg_advisory_xact_lock(change_lock_key())');
    // A fresh sequence reports last_value 1 with is_called false: nothing has been written yet.
    const [{ cursor }] = await q<{ cursor: number }>(
      'SELECT CASE WHEN is_called THEN last_value ELSE 0 END AS cursor FROM change_seq',
    );
    return cursor;
  });
}

/** `rows` reads the entity's rows as the API sends them (json-rows.ts), with parents' names. */
export async function deltaPull(
  db: Database,
  entity: EntityDescription,
  rowsOf: JsonRows,
  given: DeltaCursor,
  page: DeltaPage,
) {
  const safe = page.safe ?? (await safeCursor(db));
  const q = db.query;
  const { limit } = page;
  const since = given.rev;
  // A cursor from before the rows' shape changed gets them all again (row-shapes.ts).
  const { from, reset } = await rowsSince(q, entity.table, given);
  // The first limit + 1 of each kind hold the first limit + 1 of both together: the one past
  // the page says whether more follow.
  const rows = await rowsOf(q, 'WHERE t.rev > $1 AND t.rev <= $2 ORDER BY t.rev LIMIT $3', [
    from,
    safe,
    limit + 1,
  ]);
  const tombstones = await q<{ id: number; rev: number }>(
    'SELECT id, rev FROM tombstones WHERE entity_table = $1 AND rev > $2 AND rev <= $3 ORDER BY rev LIMIT $4',
    [entity.table, since, safe, limit + 1],
  );
  const revs = [...rows.map((r) => Number(r.rev)), ...tombstones.map((t) => t.rev)].sort((a, b) => a - b);
  const more = revs.length > limit;
  const cursor = more ? revs[limit - 1] : safe;
  const inPage = (rev: number) => rev <= cursor;
  const pageRows = more ? rows.filter((r) => inPage(Number(r.rev))) : rows;
  const deleted = (more ? tombstones.filter((t) => inPage(t.rev)) : tombstones).map((t) => t.id);

  const reply: Record<string, unknown> = {
    [listFieldOf(entity)]: pageRows,
    [DELTA_DELETED_FIELD]: deleted,
    // Text, so a client never has to care whether it outgrows a JS number.
    // A page of a re-send that ends below the reset says so, or the next page would start
    // the re-send again (row-shapes.ts, deltaCursorText).
    [DELTA_CURSOR_FIELD]: deltaCursorText(cursor, reset),
    [DELTA_MORE_FIELD]: more,
    total: pageRows.length,
  };
  if (page.count) reply[DELTA_REMAINING_FIELD] = more ? await countAfter(db, entity, cursor, safe) : 0;
  return reply;
}

/** Changes in (after, upTo]: rows by their rev index, deletions by the tombstones' index. */
async function countAfter(db: Database, entity: EntityDescription, after: number, upTo: number) {
  const [{ n }] = await db.query<{ n: number }>(
    `SELECT (SELECT count(*) FROM ${ident(entity.table)} WHERE rev > $1 AND rev <= $2)
          + (SELECT count(*) FROM tombstones WHERE entity_table = $3 AND rev > $1 AND rev <= $2) AS n`,
    [after, upTo, entity.table],
  );
  return Number(n);
}
