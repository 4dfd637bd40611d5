/**
 * The file of unsent changes. Round trip of every waiting change with its
 * files and the rows added offline, the version and tamper checks (refused with a message,
 * nothing queued), and what loading does with a file already loaded, another administrator's
 * changes, and the device's own waiting change to the same record.
 */
import { describe, expect, it } from 'vitest';
import { classEntity, schoolEntity, teacherEntity } from '../../../src/contract/entities';
import type { LocalDb } from '../../../src/db/database';
import { writeSignedInUser } from '../../../src/db/meta';
import { mutate } from '../../../src/db/mutate';
import { openLocalDb } from '../../../src/db/open';
import type { OutboxEntry } from '../../../src/db/outbox/outbox-entry';
import { retryEntry } from '../../../src/db/outbox/queue-actions';
import { gatherQueue, loadSavedQueue } from '../../../src/db/saved-queue/gather-and-load';
import {
  DAMAGED_QUEUE_FILE,
  decodeSavedQueue,
  encodeSavedQueue,
  NEWER_QUEUE_FILE,
  NOT_A_QUEUE_FILE,
  SavedQueueError,
} from '../../../src/db/saved-queue/saved-queue-file';
import { loadedText, storageText } from '../../../src/ui/saved-queue/texts';
import { pngFile } from '../../helpers/files';
import { freshLocalDbEach } from '../../helpers/local-db';

let db: LocalDb;
freshLocalDbEach('saved-queue', (opened) => {
  db = opened;
});

const school = {
  school_name: 'Hill Side School',
  school_address: '1 Hill Road',
  password: 'school-1',
  email: 'office@hillside.example',
  contact_no: '022 2345 6789',
  country: 'IN',
  state: 'MH',
  city: 'Mumbai',
};

const teacher = (name: string, school_id: string) => ({
  teacher_name: name,
  email: `${name.toLowerCase().replace(/ /g, '.')}@example.org`,
  password: 'secret-1',
  contact_no: '+91 98765 43210',
  school_id,
  country: 'IN',
  state: 'MH',
  city: 'Pune',
  zipcode: '411001',
});

/** A second device: its own local store. */
let devices = 0;
async function otherDevice(): Promise<LocalDb> {
  const other = openLocalDb(`saved-queue-other-${++devices}`);
  await other.open();
  return other;
}

const entries = (on: LocalDb) => on.outbox.orderBy('seq').toArray();
const strip = ({ seq: _s, copied: _c, nextAttemptAt: _n, ...rest }: OutboxEntry) => rest;

async function queueSome() {
  await writeSignedInUser(db, 'admin');
  await db.rows(classEntity).put({ [classEntity.key]: '7', class_name: 'Class 7' });
  const logo = pngFile('logo.png', 3000);
  const s = await mutate(db, { op: 'add', entity: schoolEntity, values: { ...school, school_logo: logo } });
  const t = await mutate(db, { op: 'add', entity: teacherEntity, values: teacher('Meera Joshi', s.key) });
  await mutate(db, { op: 'add', entity: classEntity, values: { class_name: 'Class 9' } });
  await mutate(db, { op: 'update', entity: classEntity, key: '7', values: { class_name: 'Class 7b' } });
  return { logo, school: s, teacher: t };
}

async function expectRefused(text: string, message: string) {
  const error = await decodeSavedQueue(text).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(SavedQueueError);
  expect((error as Error).message).toBe(message);
}

describe('the file of unsent changes', () => {
  it('round trip: every change with its key, author and files, and the rows added offline', async () => {
    const { logo, school: s, teacher: t } = await queueSome();
    const before = await entries(db);
    const text = await encodeSavedQueue(await gatherQueue(db));
    const back = await decodeSavedQueue(text);

    expect(back.savedBy).toBe('admin');
    expect(back.entries.map((e) => [e.id, e.op, e.entity, e.key, e.author])).toEqual(
      before.map((e) => [e.id, e.op, e.entity, e.key, 'admin']),
    );
    // The logo came back with its type and bytes.
    const carried = back.entries[0].payload.school_logo as Blob;
    expect([carried.type, carried.size]).toEqual(['image/png', logo.size]);
    expect(new Uint8Array(await carried.arrayBuffer())).toEqual(new Uint8Array(await logo.arrayBuffer()));
    // The records added offline come with their rows; the teacher names the school's temporary id.
    // The rows the changes are about come along (the records added offline, the class edited).
    expect(back.rows.map((r) => r.entity)).toEqual(['school', 'teacher', 'class', 'class']);
    expect(back.rows.map((r) => r.row.school_name ?? r.row.teacher_name ?? r.row.class_name)).toEqual([
      'Hill Side School',
      'Meera Joshi',
      'Class 9',
      'Class 7b',
    ]);
    expect([s.key, t.key].every((k) => back.rows.some((r) => Object.values(r.row).includes(k)))).toBe(true);
    expect(back.rows[1].row.school_id).toBe(s.key);
    // Saving marks this device's copies: never folded into afterwards.
    expect((await entries(db)).every((e) => e.copied)).toBe(true);
  });

  it('a file keeps its name; a Blob named twice travels once', async () => {
    const logo = pngFile('logo.png', 500);
    const text = await encodeSavedQueue({
      savedAt: 1,
      device: 'd',
      savedBy: null,
      entries: [],
      rows: [
        { entity: 'school', row: { school_id: 'tmp-1', school_logo: logo } },
        { entity: 'school', row: { school_id: 'tmp-2', school_logo: logo } },
      ],
      idmap: [],
    });
    expect(JSON.parse(text).body.files).toHaveLength(1);
    const back = await decodeSavedQueue(text);
    const file = back.rows[1].row.school_logo as File;
    expect(file).toBeInstanceOf(File);
    expect([file.name, file.type, file.size, file.lastModified]).toEqual([
      'logo.png',
      'image/png',
      500,
      logo.lastModified,
    ]);
  });

  it('a full disk: the file is made all the same, without the marks it cannot write', async () => {
    await queueSome();
    const full = () => {
      throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
    };
    // The mark's write (the modify of the saved entries) is refused as a full disk refuses it.
    const outbox = db.outbox;
    const where = outbox.where.bind(outbox);
    outbox.where = ((index: string) => {
      const clause = where(index);
      const anyOf = clause.anyOf.bind(clause);
      clause.anyOf = ((...keys: never[]) =>
        Object.assign(anyOf(...keys), { modify: full })) as typeof clause.anyOf;
      return clause;
    }) as typeof outbox.where;
    try {
      const back = await decodeSavedQueue(await encodeSavedQueue(await gatherQueue(db)));
      expect(back.entries).toHaveLength(4);
    } finally {
      outbox.where = where;
    }
    expect((await entries(db)).some((e) => e.copied)).toBe(false);
  });

  it('an edit after saving is a change of its own, not folded into the saved add', async () => {
    const { school: s } = await queueSome();
    await gatherQueue(db);
    await mutate(db, { op: 'update', entity: schoolEntity, key: s.key, values: { school_name: 'Hill Top' } });
    const mine = (await entries(db)).filter((e) => e.key === s.key);
    expect(mine.map((e) => e.op)).toEqual(['add', 'update']);
    expect(mine[0].payload.school_name).toBe('Hill Side School');
  });

  it('refuses what is not such a file, a newer version and a tampered or cut file, with a message', async () => {
    await queueSome();
    const text = await encodeSavedQueue(await gatherQueue(db));
    await expectRefused('not json at all', NOT_A_QUEUE_FILE);
    await expectRefused('{"hello":1}', NOT_A_QUEUE_FILE);
    await expectRefused(text.replace('"version":1', '"version":2'), NEWER_QUEUE_FILE);
    await expectRefused(text.replace('Class 7b', 'Class 7c'), DAMAGED_QUEUE_FILE);
    await expectRefused(text.slice(0, -200), NOT_A_QUEUE_FILE);
    // A file's bytes changed, checksum recomputed by hand: the file's own hash still refuses it.
    const envelope = JSON.parse(text);
    envelope.body.files[0].data = `${envelope.body.files[0].data.slice(0, -4)}QUJD`;
    const bodyText = JSON.stringify(envelope.body);
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(bodyText));
    const hex = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
    const forged = `{"format":"${envelope.format}","version":1,"checksum":"sha256:${hex}","body":${bodyText}}`;
    await expectRefused(forged, DAMAGED_QUEUE_FILE);
  });

  it('loaded on another device: the same changes under the same keys, the rows, the files', async () => {
    await queueSome();
    const before = await entries(db);
    const text = await encodeSavedQueue(await gatherQueue(db));
    const other = await otherDevice();
    try {
      await writeSignedInUser(other, 'admin');
      const report = await loadSavedQueue(other, await decodeSavedQueue(text));
      expect(report).toEqual({ queued: 4, alreadyHere: 0, waitingFor: [] });
      const loaded = await entries(other);
      expect(loaded.map(strip)).toEqual(before.map(strip));
      expect(loaded.every((e) => e.copied && e.status === 'pending')).toBe(true);
      expect((await other.rows(classEntity).get('7'))?.class_name).toBe('Class 7b');
      const row = await other.rows(schoolEntity).get(before[0].key);
      expect(row?.school_name).toBe('Hill Side School');
      expect((row?.school_logo as Blob | undefined)?.size).toBe(3000);

      // The same file again: nothing queued twice.
      expect(await loadSavedQueue(other, await decodeSavedQueue(text))).toEqual({
        queued: 0,
        alreadyHere: 4,
        waitingFor: [],
      });
      expect(await other.outbox.count()).toBe(4);
    } finally {
      other.close();
      await other.delete();
    }
  });

  it('another administrator signed in: the changes keep their author and wait for them', async () => {
    await queueSome();
    const text = await encodeSavedQueue(await gatherQueue(db));
    const other = await otherDevice();
    try {
      await writeSignedInUser(other, 'second');
      const report = await loadSavedQueue(other, await decodeSavedQueue(text));
      expect(report).toEqual({ queued: 4, alreadyHere: 0, waitingFor: ['admin'] });
      expect((await entries(other)).map((e) => e.author)).toEqual(['admin', 'admin', 'admin', 'admin']);
    } finally {
      other.close();
      await other.delete();
    }
  });

  it("the device's own waiting edit of the same record goes first; the loaded one after it", async () => {
    await queueSome();
    const text = await encodeSavedQueue(await gatherQueue(db));
    const other = await otherDevice();
    try {
      await writeSignedInUser(other, 'admin');
      await other.rows(classEntity).put({ [classEntity.key]: '7', class_name: 'Class 7' });
      await mutate(other, {
        op: 'update',
        entity: classEntity,
        key: '7',
        values: { class_name: 'Class 7 (B)' },
      });
      await loadSavedQueue(other, await decodeSavedQueue(text));
      const sevens = (await entries(other)).filter((e) => e.key === '7');
      expect(sevens.map((e) => e.payload.class_name)).toEqual(['Class 7 (B)', 'Class 7b']);
    } finally {
      other.close();
      await other.delete();
    }
  });

  it('Retry of a refused change on both devices: one new key, made from the old one', async () => {
    await queueSome();
    const text = await encodeSavedQueue(await gatherQueue(db));
    const other = await otherDevice();
    try {
      await writeSignedInUser(other, 'admin');
      await loadSavedQueue(other, await decodeSavedQueue(text));
      const retried: string[] = [];
      for (const device of [db, other]) {
        const [first] = await entries(device);
        await device.outbox.update(first.seq, { status: 'failed', attempts: 1, lastError: 'Refused' });
        await retryEntry(device, first.seq);
        retried.push((await device.outbox.get(first.seq))!.id);
      }
      const [original] = JSON.parse(text).body.queue.entries;
      expect(retried).toEqual([`${original.id}~r1`, `${original.id}~r1`]);
    } finally {
      other.close();
      await other.delete();
    }
  });

  it('says in words what the browser keeps, how much is used, and what a load did', () => {
    const MB = 1024 ** 2;
    expect(storageText({ persisted: true, usage: 3 * MB, quota: 2048 * MB })).toBe(
      'This browser keeps the changes on this device until they are sent (persistent storage is on). 3.0 MB used of 2.0 GB this browser allows.',
    );
    expect(storageText({ persisted: false, usage: 95 * MB, quota: 100 * MB })).toBe(
      'This browser may clear its storage when the device runs short of space (persistent storage is off). Save unsent changes to a file to be safe. 95.0 MB used of 100.0 MB this browser allows. This device is almost out of storage space: save unsent changes to a file now.',
    );
    expect(loadedText({ queued: 3, alreadyHere: 1, waitingFor: ['maria'], signedIn: 'admin' })).toBe(
      'Loaded 3 changes. 1 change of the file was already here. They were made by maria and wait until they sign in on this device.',
    );
  });
});
