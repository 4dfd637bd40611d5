/**
 * The database locker of resumable uploads (server/storage/upload-locks.ts), as two server
 * processes see it: two lockers on one database, each with its own memory. The holder is asked
 * to let go through the table, a lock whose holder died is free once its lease ran out, and a
 * lock that is never freed makes the waiter give up rather than wait for ever.
 */
import { ERRORS } from '@tus/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../../server/db';
import { DatabaseLocker } from '../../../server/storage/upload-locks';

let db: Database;
const times = { leaseMs: 1_000, renewMs: 50, pollMs: 10, acquireTimeoutMs: 20_000 };

beforeAll(async () => {
  db = await openDatabase({ dataDir: 'memory://' });
});
afterAll(() => db?.close());

const never = new AbortController().signal;

describe('two processes, one upload', () => {
  it('the second waits, asks the first to let go, and gets the lock when it does', async () => {
    const [first, second] = [new DatabaseLocker(db, times), new DatabaseLocker(db, times)];
    const held = first.newLock('upload-a');
    const events: string[] = [];
    let letGo!: () => void;
    const asked = new Promise<void>((resolve) => {
      letGo = resolve;
    });
    await held.lock(never, () => {
      events.push('first asked to let go');
      letGo();
    });
    const next = second.newLock('upload-a');
    const waiting = next.lock(never, () => {}).then(() => events.push('second holds it'));
    await asked;
    events.push('first lets go');
    await held.unlock();
    await waiting;
    expect(events).toEqual(['first asked to let go', 'first lets go', 'second holds it']);
    await next.unlock();
  });

  it('takes over a lock whose holder died, once its lease ran out', async () => {
    await db.query(
      `INSERT INTO upload_locks (id, holder, expires_at) VALUES ('upload-b', 'a process that died', now() + interval '300 milliseconds')`,
    );
    const lock = new DatabaseLocker(db, times).newLock('upload-b');
    await lock.lock(never, () => {});
    const [row] = await db.query<{ holder: string }>("SELECT holder FROM upload_locks WHERE id = 'upload-b'");
    expect(row.holder).not.toBe('a process that died');
    await lock.unlock();
    expect(await db.query("SELECT 1 FROM upload_locks WHERE id = 'upload-b'")).toEqual([]);
  });

  it('gives up when the lock is not freed in time, having asked for it', async () => {
    await db.query(
      `INSERT INTO upload_locks (id, holder, expires_at) VALUES ('upload-c', 'a deaf process', now() + interval '1 hour')`,
    );
    const impatient = new DatabaseLocker(db, { ...times, acquireTimeoutMs: 200 });
    await expect(impatient.newLock('upload-c').lock(never, () => {})).rejects.toBe(ERRORS.ERR_LOCK_TIMEOUT);
    const [row] = await db.query<{ release_requested: boolean }>(
      "SELECT release_requested FROM upload_locks WHERE id = 'upload-c'",
    );
    expect(row.release_requested).toBe(true);
  });
});
