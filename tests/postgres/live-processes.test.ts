/**
 * Two server processes on one PostgreSQL: a commit made through one is heard on the live stream
 * of the other (LISTEN/NOTIFY), and a listening connection the database drops is made again,
 * and reads the sequence at once, since it cannot know what it missed.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../../server/app/start';
import { classEntity } from '../../src/contract/entities';
import { openLiveStream, type TestStream } from '../helpers/live-stream';
import { ADMIN, api, signIn, startTestServer, type TestServer } from '../helpers/server';

let first: TestServer;
let second: RunningServer;
let stream: TestStream;
let cookie: string;

beforeAll(async () => {
  first = await startTestServer();
  second = await startServer({
    port: 0,
    databaseUrl: first.databaseUrl,
    dataDir: first.dataDir,
    adminPassword: ADMIN.password,
  });
  cookie = await signIn(first.apiRoot);
  stream = await openLiveStream(second.apiRoot, cookie);
}, 120_000);
afterAll(async () => {
  stream?.close();
  await second?.close();
  await first?.close();
});

const sequence = async () =>
  Number(
    (
      await first.query<{ seq: number }>(
        'SELECT CASE WHEN is_called THEN last_value ELSE 0 END AS seq FROM change_seq',
      )
    )[0].seq,
  );

it('a commit through one process is heard on the stream of the other', async () => {
  expect(stream.status).toBe(200);
  await expect.poll(() => stream.ids.length).toBe(1);
  const reply = await api(first.apiRoot, cookie).post(classEntity.api.add!, { className: 'Heard elsewhere' });
  expect(reply.body.success).toBe(true);
  await expect.poll(() => stream.ids.at(-1)).toBe(await sequence());
});

it('a listening connection that is dropped comes back and tells the stream what it missed', async () => {
  const dropped = await first.query<{ pid: number }>(
    `SELECT pg_terminate_backend(pid) AS pid FROM pg_stat_activity
      WHERE datname = current_database() AND query LIKE 'LISTEN %' AND pid <> pg_backend_pid()`,
  );
  expect(dropped.length).toBeGreaterThanOrEqual(2);
  // Committed while no process listens (a listener comes back a second after it is lost): its
  // notification reaches nobody, and only the read a listener makes on coming back tells the stream.
  await api(first.apiRoot, cookie).post(classEntity.api.add!, {
    className: 'Committed while nobody listens',
  });
  await expect.poll(() => stream.ids.at(-1), { timeout: 15_000 }).toBe(await sequence());
  await api(first.apiRoot, cookie).post(classEntity.api.add!, { className: 'Heard after the drop' });
  await expect.poll(() => stream.ids.at(-1), { timeout: 15_000 }).toBe(await sequence());
});
