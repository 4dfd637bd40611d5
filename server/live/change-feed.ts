/**
 * The change sequence as this process hears it move: the database notifies channel `changes`
 * when a transaction that changed rows commits (migration 022, in every process of a
 * scale-out through PostgreSQL's LISTEN/NOTIFY, in-process on PGlite), and the feed reads the
 * sequence's value and tells its subscribers. Notifications that come while it reads are
 * folded into one more read, so a burst of commits costs a read or two, not one each. With no
 * subscriber (no live stream open on this process) nothing is read, so a write costs no read of
 * its own. `current()` reads the sequence itself: a notification may still be on its way when a
 * stream opens (PostgreSQL delivers it on another connection), and the stream's first event must
 * be the sequence as it is.
 *
 * The value read may be ahead of what has committed (another transaction drew numbers and runs
 * still): a device that pulls then is not misled, because a delta read waits for writes in
 * flight (server/entities/delta.ts), and that transaction's commit notifies again.
 */
import type { Database } from '../db';

const CHANGES_CHANNEL = 'changes';

export interface ChangeFeed {
  /** The sequence's value, read now. */
  current(): Promise<number>;
  /** Calls `heard` with the sequence after each commit (or burst of commits); returns how to stop. */
  subscribe(heard: (seq: number) => void): () => void;
  close(): Promise<void>;
}

// A fresh sequence says last_value 1 before its first number is drawn: that is 0, or the
// first commit (rev 1) would be announced as what a device already heard.
const readSequence = async (db: Database) =>
  Number(
    (
      await db.query<{ seq: number }>(
        'SELECT CASE WHEN is_called THEN last_value ELSE 0 END AS seq FROM change_seq',
      )
    )[0]?.seq ?? 0,
  );

export async function openChangeFeed(db: Database, onError: (err: unknown) => void): Promise<ChangeFeed> {
  const subscribers = new Set<(seq: number) => void>();
  let seq = await readSequence(db);
  let reading: Promise<void> | null = null;
  let again = false;
  const readNow = async () => {
    seq = Math.max(seq, await readSequence(db));
    return seq;
  };

  // Nothing is awaited between the last check of `again` and `reading` being cleared, so a
  // notification is either seen by the loop or starts a new one.
  const drain = async () => {
    try {
      while (again) {
        again = false;
        await readNow();
        for (const tell of subscribers) tell(seq);
      }
    } catch (err) {
      onError(err);
    } finally {
      reading = null;
    }
  };
  const heard = () => {
    if (subscribers.size === 0) return;
    again = true;
    reading ??= drain();
  };
  const stop = await db.listen(CHANGES_CHANNEL, heard);
  return {
    current: readNow,
    subscribe(fn) {
      subscribers.add(fn);
      return () => void subscribers.delete(fn);
    },
    async close() {
      subscribers.clear();
      await stop();
      await reading;
    },
  };
}
