/**
 * The upload journal (server/uploads/journal.ts) and its sweeper (server/storage/sweep.ts): a
 * rolled-back write leaves no file; work left undone by a process that died between two steps
 * is finished by the sweep, from the pending marks and the journal rows that committed with
 * the change. On a local folder here, and on a bucket in the 's3' project.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, openDatabase } from '../../../server/db';
import type { FileStorage } from '../../../server/storage';
import { PENDING_GRACE_MS, sweepFiles } from '../../../server/storage/sweep';
import { FileJournal, inTransactionWithFiles } from '../../../server/uploads/journal';
import { saveUpload } from '../../../server/uploads/store';
import { openTestStorage } from '../../helpers/storage';
import { storedFiles } from '../support/files';

let db: Database;
let dir: string;
let storage: FileStorage;
let stop: () => Promise<void>;

beforeAll(async () => {
  db = await openDatabase({ dataDir: 'memory://' });
  dir = await mkdtemp(join(tmpdir(), 'journal-'));
  ({ storage, stop } = await openTestStorage(dir));
});
afterAll(async () => {
  await db.close();
  await stop?.();
  await rm(dir, { recursive: true, force: true });
});

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const later = () => Date.now() + PENDING_GRACE_MS + 60_000;
const marks = async () => (await storage.marks(new Date(later()))).map((m) => m.name).sort();
const journalRows = () => db.query('SELECT folder, name, outcome FROM upload_journal ORDER BY name');

describe('a write in a transaction', () => {
  it('keeps its file on commit, leaving no mark and no journal row', async () => {
    const name = await inTransactionWithFiles(db, storage, (_q, files) => files.save('cms', PNG, 'png'));
    expect(await storedFiles(storage, 'cms')).toContain(name);
    expect(await marks()).toEqual([]);
    expect(await journalRows()).toEqual([]);
  });

  it('leaves neither file nor mark when it rolls back', async () => {
    let name = '';
    await expect(
      inTransactionWithFiles(db, storage, async (_q, files) => {
        name = await files.save('cms', PNG, 'png');
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    expect(await storedFiles(storage, 'cms')).not.toContain(name);
    expect(await marks()).toEqual([]);
  });

  it('removes the file it made obsolete, after the commit', async () => {
    const old = await saveUpload(storage, 'book_cover', PNG, 'png');
    await inTransactionWithFiles(db, storage, async (_q, files) => files.dropOnSuccess('book_cover', old));
    expect(await storedFiles(storage, 'book_cover')).not.toContain(old);
    expect(await journalRows()).toEqual([]);
  });
});

describe('the sweep, after a process died half-way', () => {
  /** A journal whose transaction ran but whose after-commit (or rollback) work never did. */
  async function interrupted(
    commit: boolean,
    work: (files: ReturnType<FileJournal['forItem']>) => Promise<void>,
  ) {
    const journal = new FileJournal(storage, db);
    const item = journal.forItem();
    await db
      .tx(async (q) => {
        await work(item);
        item.keep();
        await journal.record(q);
        if (!commit) throw new Error('the process died before the commit');
      })
      .catch(() => {});
  }

  it('removes a file whose transaction never committed, and its mark', async () => {
    let name = '';
    await interrupted(false, async (files) => {
      name = await files.save('videos', PNG, 'png');
    });
    expect(await storedFiles(storage, 'videos')).toContain(name);
    // A fresh mark belongs to a write that may still be running: left alone.
    expect(await sweepFiles(storage, db)).toEqual({ removed: 0, cleared: 0 });
    expect(await sweepFiles(storage, db, later())).toEqual({ removed: 1, cleared: 0 });
    expect(await storedFiles(storage, 'videos')).not.toContain(name);
    expect(await marks()).toEqual([]);
  });

  it('keeps a file whose transaction committed, clearing its mark and row', async () => {
    let name = '';
    await interrupted(true, async (files) => {
      name = await files.save('audio', PNG, 'png');
    });
    expect(await marks()).toEqual([name]);
    expect(await sweepFiles(storage, db, later())).toEqual({ removed: 0, cleared: 1 });
    expect(await storedFiles(storage, 'audio')).toEqual([name]);
    expect(await marks()).toEqual([]);
    expect(await journalRows()).toEqual([]);
  });

  it('removes a file that a committed change made obsolete', async () => {
    const old = await saveUpload(storage, 'thumbnails', PNG, 'png');
    await interrupted(true, async (files) => files.dropOnSuccess('thumbnails', old));
    expect(await journalRows()).toEqual([{ folder: 'thumbnails', name: old, outcome: 'dropped' }]);
    expect(await sweepFiles(storage, db, later())).toEqual({ removed: 1, cleared: 0 });
    expect(await storedFiles(storage, 'thumbnails')).toEqual([]);
    expect(await journalRows()).toEqual([]);
  });
});
