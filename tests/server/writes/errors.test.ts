/**
 * Failures inside a write: a thrown error becomes a JSON 500 without a stack, and rolls back
 * the whole transaction, the idempotency claim included, so a retry with the same key works;
 * a file the request had already stored is removed again.
 * Runs the app in process (Hono's app.request) on an in-memory database whose transaction
 * executor is made to fail on demand.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../server/app/create-app';
import { ensureAdmin } from '../../../server/auth/admin';
import { createSession } from '../../../server/auth/sessions';
import { type Database, openDatabase } from '../../../server/db';
import { createOps } from '../../../server/ops';
import { streamLogger } from '../../../server/ops/log';
import { seedDemo } from '../../../server/seed/demo';
import { type FileStorage, openStorage } from '../../../server/storage';
import { bookEntity, classEntity } from '../../../src/contract/entities';
import { form, sampleFile, storedFiles } from '../support/files';

let real: Database;
let failOn: RegExp | null = null;
let app: ReturnType<typeof createApp>;
/** The server's log lines, parsed. */
let logged: Record<string, unknown>[] = [];
let cookie: string;
let dataDir: string;
let storage: FileStorage;

beforeAll(async () => {
  real = await openDatabase({ dataDir: 'memory://' });
  // Same database, but statements matching `failOn` throw inside write transactions.
  const db: Database = {
    ...real,
    tx: (fn) =>
      real.tx((q) =>
        fn((sql, params) => {
          if (failOn?.test(sql)) throw new Error('injected failure');
          return q(sql, params);
        }),
      ),
  };
  dataDir = await mkdtemp(join(tmpdir(), 'errors-'));
  storage = await openStorage({ uploadsDir: join(dataDir, 'uploads'), tusDir: join(dataDir, 'tus') });
  const log = streamLogger({ write: (line: string) => void logged.push(JSON.parse(line)) });
  app = createApp({ db, storage, ops: createOps(db, { log }) });
  await real.tx(seedDemo);
  await ensureAdmin(real.query, 'admin', 'admin123');
  const [{ id }] = await real.query<{ id: number }>('SELECT id FROM admins');
  cookie = `sid=${await createSession(real.query, id)}`;
});
afterAll(async () => {
  await real.close();
  await rm(dataDir, { recursive: true, force: true });
});

const add = (key: string) =>
  app.request(`/api/${classEntity.api.add}`, {
    method: 'POST',
    headers: { Cookie: cookie, 'Content-Type': 'application/json', 'Idempotency-Key': key },
    body: JSON.stringify({ className: 'Fragile' }),
  });
const count = async () => (await real.query("SELECT 1 FROM classes WHERE class_name = 'Fragile'")).length;

describe('a failure after the write', () => {
  it('replies 500 JSON without details, rolls back, and lets the same key succeed later', async () => {
    logged = [];
    // The statement that claims the keys (with the audit entries), the last of the transaction.
    failOn = /INSERT INTO idempotency_keys/;
    const failed = await add('fragile-1');
    failOn = null;
    expect(failed.status).toBe(500);
    expect(await failed.json()).toEqual({ success: false, message: 'Internal server error' });
    // The stack is in the log, once, with the request's id (which the reply names too).
    const stacks = logged.filter((l) =>
      (l.err as { stack?: string } | undefined)?.stack?.includes('injected'),
    );
    expect(stacks).toHaveLength(1);
    expect(stacks[0].reqId).toBe(failed.headers.get('X-Request-Id'));
    expect(await count()).toBe(0);
    expect(await real.query("SELECT 1 FROM idempotency_keys WHERE key = 'fragile-1'")).toEqual([]);

    const retried = await add('fragile-1');
    expect(retried.status).toBe(200);
    expect(retried.headers.get('Idempotent-Replayed')).toBeNull();
    expect(await count()).toBe(1);
  });
});

describe('a failure after a file was stored', () => {
  it('rolls the row back and removes the file: no orphan on disk', async () => {
    const body = form({
      selectedClass: 1,
      selectedSubject: 1,
      selectedSeries: 1,
      bookName: 'Fragile book',
      bookCode: 'FB-1',
      bookCover: sampleFile('png', 'cover.png'),
    });
    failOn = /^INSERT INTO "books"/;
    const failed = await app.request(`/api/${bookEntity.api.add}`, {
      method: 'POST',
      headers: { Cookie: cookie },
      body,
    });
    failOn = null;
    expect(failed.status).toBe(500);
    expect(await real.query("SELECT 1 FROM books WHERE book_name = 'Fragile book'")).toEqual([]);
    expect(await storedFiles(storage, 'book_cover')).toEqual([]);
  });
});
