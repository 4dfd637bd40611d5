/**
 * The live stream (server/live): a signed-in device hears the change sequence at once, then
 * after each commit, and nothing else; a comment keeps a quiet stream open and is when a
 * signed-out session ends its streams; a few streams per session; none in legacy mode; a
 * shutdown ends them all; /metrics counts them. Runs on PGlite, and on PostgreSQL in the
 * postgres project (LISTEN/NOTIFY between processes: tests/postgres/live-processes.test.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_TEXT, STREAMS_PER_SESSION } from '../../../server/live/events-route';
import { classEntity } from '../../../src/contract/entities';
import { openLiveStream, type TestStream } from '../../helpers/live-stream';
import { api, signIn, startTestServer, type TestServer } from '../../helpers/server';

let server: TestServer;
let cookie: string;
const opened: TestStream[] = [];

const open = async (as: string | null = cookie, headers: Record<string, string> = {}) => {
  const stream = await openLiveStream(server.apiRoot, as, headers);
  opened.push(stream);
  return stream;
};

const sequence = async () =>
  Number(
    (
      await server.query<{ seq: number }>(
        'SELECT CASE WHEN is_called THEN last_value ELSE 0 END AS seq FROM change_seq',
      )
    )[0].seq,
  );

const addClass = async (name: string) =>
  expect(
    (await api(server.apiRoot, cookie).post(classEntity.api.add!, { className: name })).body,
  ).toMatchObject({
    success: true,
  });

beforeAll(async () => {
  // Keep-alives every 300 ms: a signed-out session's stream ends within that.
  server = await startTestServer({ settings: { liveKeepAliveMs: 300 } });
  cookie = await signIn(server.apiRoot);
}, 120_000);
afterAll(async () => {
  for (const stream of opened) stream.close();
  await server?.close();
});

describe('GET /api/sync/events', () => {
  it('needs a session: a JSON 401 without one', async () => {
    const stream = await open(null);
    expect(stream.status).toBe(401);
    expect(stream.body).toEqual({ success: false, message: 'Please sign in' });
  });

  it('says the sequence at once, then after each commit, as ids and nothing else', async () => {
    const stream = await open();
    expect(stream.status).toBe(200);
    await expect.poll(() => stream.ids.length).toBe(1);
    // Nothing written yet on this fresh database: 0, so that the first commit (1) is news.
    expect(stream.ids[0]).toBe(0);
    expect(await sequence()).toBe(0);

    await addClass('Live class one');
    const [{ rev }] = await server.query<{ rev: number }>('SELECT rev FROM classes WHERE class_name = $1', [
      'Live class one',
    ]);
    await expect.poll(() => stream.ids.at(-1)).toBeGreaterThanOrEqual(Number(rev));
    await addClass('Live class two');
    await expect.poll(() => stream.ids.at(-1)).toBe(await sequence());
    // Ids only ever grow; a quiet stream hears comments meanwhile.
    expect([...stream.ids].sort((a, b) => a - b)).toEqual(stream.ids);
    await expect.poll(() => stream.comments).toBeGreaterThan(0);
    expect(stream.ended).toBe(false);
  });

  it('sends the sequence at once to a device coming back, whatever id it last heard', async () => {
    const now = await sequence();
    const behind = await open(cookie, { 'Last-Event-ID': String(now - 1) });
    await expect.poll(() => behind.ids).toEqual([now]);
  });

  it(`takes ${STREAMS_PER_SESSION} streams per session; the next one is refused with a JSON 429`, async () => {
    const session = await signIn(server.apiRoot);
    const streams = [];
    for (let i = 0; i < STREAMS_PER_SESSION; i++) streams.push(await open(session));
    expect(streams.map((s) => s.status)).toEqual(streams.map(() => 200));
    const extra = await open(session);
    expect(extra.status).toBe(429);
    expect(extra.body).toEqual({ success: false, message: LIVE_TEXT.tooMany });
    // One closed, one may come again.
    streams[0].close();
    await expect.poll(async () => (await open(session)).status).toBe(200);
  });

  it('ends the streams of a session signed out, at its next keep-alive', async () => {
    const session = await signIn(server.apiRoot);
    const stream = await open(session);
    await expect.poll(() => stream.ids.length).toBe(1);
    expect((await api(server.apiRoot, session).post('Admin_access/logout.php')).status).toBe(200);
    await stream.done;
    expect(stream.ended).toBe(true);
  });

  it('counts open streams and events sent in /metrics', async () => {
    const metric = async (name: string) => {
      const text = await (await fetch(`${server.url}/metrics`)).text();
      return Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1] ?? Number.NaN);
    };
    const open0 = await metric('live_streams_open');
    const stream = await open();
    await expect.poll(() => stream.ids.length).toBe(1);
    expect(await metric('live_streams_open')).toBe(open0 + 1);
    expect(await metric('live_pokes_sent_total')).toBeGreaterThan(0);
    stream.close();
    await expect.poll(() => metric('live_streams_open')).toBe(open0);
  });
});

describe('streams and the rest of the server', () => {
  it('hold no database connection while idle: with more streams open than the pool has connections, /readyz and reads answer', async () => {
    // Three sessions' worth: more than PostgreSQL's pool of 10 in the postgres project.
    const sessions = [
      await signIn(server.apiRoot),
      await signIn(server.apiRoot),
      await signIn(server.apiRoot),
    ];
    const streams = await Promise.all(
      sessions.flatMap((session) => Array.from({ length: STREAMS_PER_SESSION }, () => open(session))),
    );
    expect(streams.map((s) => s.status)).toEqual(streams.map(() => 200));
    await expect.poll(() => streams.every((s) => s.ids.length >= 1)).toBe(true);
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
    const read = await api(server.apiRoot, cookie).get(classEntity.api.list!);
    expect(read.body.success).toBe(true);
    await addClass('Heard by every stream');
    const seq = await sequence();
    await expect.poll(() => streams.every((s) => s.ids.at(-1) === seq)).toBe(true);
    for (const stream of streams) stream.close();
  });
});

describe('commits while no stream is open', () => {
  it('are not lost: the next stream opened starts from the sequence as it is now', async () => {
    const own = await startTestServer();
    try {
      const session = await signIn(own.apiRoot);
      const add = (name: string) => api(own.apiRoot, session).post(classEntity.api.add!, { className: name });
      const ownSequence = async () =>
        Number(
          (
            await own.query<{ seq: number }>(
              'SELECT CASE WHEN is_called THEN last_value ELSE 0 END AS seq FROM change_seq',
            )
          )[0].seq,
        );
      await add('Before any stream');
      const first = await openLiveStream(own.apiRoot, session);
      await expect.poll(() => first.ids).toEqual([await ownSequence()]);
      expect(first.ids[0]).toBeGreaterThan(0);
      first.close();
      const streamsOpen = async () =>
        /^live_streams_open (\d+)$/m.exec(await (await fetch(`${own.url}/metrics`)).text())?.[1];
      await expect.poll(streamsOpen).toBe('0');
      // Heard by the process with no stream to tell.
      await add('Between streams one');
      await add('Between streams two');
      const second = await openLiveStream(own.apiRoot, session);
      await expect.poll(() => second.ids).toEqual([await ownSequence()]);
      expect(second.ids[0]).toBeGreaterThan(first.ids[0]);
      second.close();
    } finally {
      await own.close();
    }
  });
});

describe('a stream and the request timeout', () => {
  it('outlives it: the timeout bounds receiving a request, and a stream has been received', async () => {
    const own = await startTestServer({
      settings: { timeouts: { requestSeconds: 1, uploadChunkSeconds: 1 } },
    });
    try {
      const session = await signIn(own.apiRoot);
      const stream = await openLiveStream(own.apiRoot, session);
      await expect.poll(() => stream.ids.length).toBe(1);
      // Past the timeout and Node's check of expired requests (every 5 s at most).
      await new Promise((r) => setTimeout(r, 7000));
      expect(stream.ended).toBe(false);
      await api(own.apiRoot, session).post(classEntity.api.add!, { className: 'After the timeout' });
      await expect.poll(() => stream.ids.length).toBe(2);
      stream.close();
    } finally {
      await own.close();
    }
  }, 30_000);
});

describe('the end of a server', () => {
  it('a shutdown ends every stream at once', async () => {
    const own = await startTestServer();
    const session = await signIn(own.apiRoot);
    const streams = [await openLiveStream(own.apiRoot, session), await openLiveStream(own.apiRoot, session)];
    await expect.poll(() => streams.every((s) => s.ids.length === 1)).toBe(true);
    await own.close();
    await Promise.all(streams.map((s) => s.done));
    expect(streams.map((s) => s.ended)).toEqual([true, true]);
  });

  it('has no live stream in legacy mode (the PHP API has none): a 404', async () => {
    const legacy = await startTestServer({ legacy: true });
    try {
      const stream = await openLiveStream(legacy.apiRoot, await signIn(legacy.apiRoot));
      expect(stream.status).toBe(404);
    } finally {
      await legacy.close();
    }
  });
});
