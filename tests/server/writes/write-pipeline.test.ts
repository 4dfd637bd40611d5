/**
 * The write pipeline (server/api/write-pipeline.ts) on a real database: an item that writes
 * and then fails, by a 5xx or by throwing, leaves nothing behind, neither its writes nor its
 * Idempotency-Key, whether it came alone or in a batch with items that succeed; a refusal
 * (4xx) is stored under its key but writes nothing either. The audit trail follows: an entry
 * for each item that succeeded, none for the others, and a success without one is not committed.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runWrites, type WriteItem } from '../../../server/api/write-pipeline';
import { type Database, openDatabase } from '../../../server/db';
import { type ApiRoute, ok, refuse } from '../../../server/entities/handler';
import { type FileStorage, openStorage } from '../../../server/storage';
import { classEntity } from '../../../src/contract/entities';

let db: Database;
let uploadsDir: string;
let storage: FileStorage;

beforeAll(async () => {
  db = await openDatabase({ dataDir: 'memory://' });
  uploadsDir = await mkdtemp(join(tmpdir(), 'pipeline-'));
  storage = await openStorage({ uploadsDir, tusDir: join(uploadsDir, 'tus') });
});
afterAll(async () => {
  await db.close();
  await rm(uploadsDir, { recursive: true, force: true });
});

/** A route that adds a class, then answers `status` (or throws). */
const writeThen = (status: number | 'throw'): ApiRoute => ({
  writes: true,
  handler: async ({ q, body, audit }) => {
    const [row] = await q('INSERT INTO classes (class_name) VALUES ($1) RETURNING *', [body.name]);
    audit.added(classEntity, row);
    if (status === 'throw') throw new Error('after the first write');
    return status < 300 ? ok() : refuse(status, 'no');
  },
});

const item = (route: ApiRoute, name: string, key?: string): WriteItem => ({
  route,
  key,
  fingerprint: 'POST /api/test',
  query: {},
  body: { name },
  adminId: 1,
  role: 'Owner',
  label: 'POST /api/test',
});

const classNamed = async (name: string) =>
  (await db.query('SELECT 1 FROM classes WHERE class_name = $1', [name])).length;
const keyStored = async (key: string) =>
  (await db.query('SELECT 1 FROM idempotency_keys WHERE key = $1', [key])).length;
const audited = async (name: string) =>
  (await db.query(`SELECT 1 FROM audit_log WHERE changes->'class_name'->>1 = $1`, [name])).length;

describe('an item that fails after its first write', () => {
  it.each([500, 503, 'throw'] as const)(
    'alone (%s): nothing committed, its key free for the retry',
    async (status) => {
      const log = vi.spyOn(console, 'error').mockImplementation(() => {});
      const key = `alone-${status}`;
      const [reply] = await runWrites(db, storage, [item(writeThen(status), key, key)]);
      log.mockRestore();
      expect(reply.status).toBe(status === 'throw' ? 500 : status);
      expect(await classNamed(key)).toBe(0);
      expect(await keyStored(key)).toBe(0);
    },
  );

  it('in a batch: only that item is undone; the others commit with their keys', async () => {
    const replies = await runWrites(db, storage, [
      item(writeThen(200), 'batch-before', 'batch-before'),
      item(writeThen(500), 'batch-failed', 'batch-failed'),
      item(writeThen(200), 'batch-after', 'batch-after'),
    ]);
    expect(replies.map((r) => r.status)).toEqual([200, 500, 200]);
    expect([
      await classNamed('batch-before'),
      await classNamed('batch-failed'),
      await classNamed('batch-after'),
    ]).toEqual([1, 0, 1]);
    expect([
      await keyStored('batch-before'),
      await keyStored('batch-failed'),
      await keyStored('batch-after'),
    ]).toEqual([1, 0, 1]);
    expect([
      await audited('batch-before'),
      await audited('batch-failed'),
      await audited('batch-after'),
    ]).toEqual([1, 0, 1]);
  });
});

describe('a success that recorded no audit entry', () => {
  it('is not committed: a 500, and its key stays free', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const silent: ApiRoute = {
      writes: true,
      handler: async ({ q, body }) => {
        await q('INSERT INTO classes (class_name) VALUES ($1)', [body.name]);
        return ok();
      },
    };
    const [reply] = await runWrites(db, storage, [item(silent, 'unaudited', 'unaudited')]);
    expect(log).toHaveBeenCalledWith(expect.stringContaining('without an audit entry'));
    log.mockRestore();
    expect(reply.status).toBe(500);
    expect([await classNamed('unaudited'), await keyStored('unaudited')]).toEqual([0, 0]);
  });
});

describe('a refusal', () => {
  it('writes nothing, and its repeat gets the stored refusal without running again', async () => {
    const route = writeThen(400);
    const [first] = await runWrites(db, storage, [item(route, 'refused', 'refused')]);
    expect(first).toMatchObject({ status: 400, replayed: false });
    expect(await classNamed('refused')).toBe(0);
    expect(await audited('refused')).toBe(0);
    expect(await keyStored('refused')).toBe(1);
    const [again] = await runWrites(db, storage, [item(writeThen(200), 'refused', 'refused')]);
    expect(again).toMatchObject({ status: 400, replayed: true });
    expect(await classNamed('refused')).toBe(0);
  });
});
