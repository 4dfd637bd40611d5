/**
 * The live stream on three processes behind haproxy on one PostgreSQL: every commit made
 * through the balancer is announced on the streams of every process, and a device whose
 * process is killed loses nothing by reconnecting with the last id it heard.
 *
 * A commit's sequence is the rev it stamped (the changed rows' rev, a deletion's tombstone's),
 * read from the database after the reply: a stream that has announced at least that much has
 * told its device enough to pull the commit. A stream may fold several commits into one event
 * and may repeat a value (a listener made again tells once without knowing what changed); it
 * never goes down.
 *
 * Runs: PROPERTY_RUNS (default 2 random series of about a dozen commits each, some sent at
 * once, some in batches); a failure prints fast-check's seed and path, and PROPERTY_SEED=<seed>
 * (with PROPERTY_PATH=<path>) repeats it.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BATCH_PATH } from '../../src/contract/batch';
import { classEntity, schoolEntity, subjectEntity } from '../../src/contract/entities';
import type { EntityDescription } from '../../src/contract/entity';
import { type WireRequest, wireRequest } from '../../src/contract/wire-request';
import { type ClusterServer, startClusterServer } from '../helpers/cluster';
import { valuesFor } from '../helpers/entity-values';
import {
  liveStreamsOpen,
  openLiveStream,
  openLiveStreamThrough,
  type TestStream,
} from '../helpers/live-stream';
import { type ApiReply, api, signIn } from '../helpers/server';

const RUNS = Number(process.env.PROPERTY_RUNS ?? 2);
const SEED = process.env.PROPERTY_SEED === undefined ? undefined : Number(process.env.PROPERTY_SEED);
const PATH = process.env.PROPERTY_PATH;
/** A series takes a few seconds; a long run (PROPERTY_RUNS=50) needs its own budget. */
const TEST_TIMEOUT = 90_000 + RUNS * 30_000;
/**
 * How long a stream may take to announce a commit. An announcement normally follows in
 * milliseconds; the limit is for a loaded machine, and a poll that already holds costs nothing.
 */
const HEARD = { timeout: 20_000 };

type Kind = 'class' | 'subject' | 'school';
const ENTITY: Record<Kind, EntityDescription> = {
  class: classEntity,
  subject: subjectEntity,
  school: schoolEntity,
};
const KINDS = Object.keys(ENTITY) as Kind[];
/** What a batch may carry: JSON bodies (a school's form is multipart, which never goes in one). */
const BATCHED = KINDS.filter((k) => ENTITY[k].api.encoding === 'json');
/** None of these entities has a parent. */
const NO_PARENTS = new Map<string, string>();

interface Held {
  kind: Kind;
  id: string;
}
/**
 * A change as generated: an add's kind, or the record an edit or deletion takes, is `pick`
 * among what there is when it runs (`plan`).
 */
interface Change {
  t: 'add' | 'edit' | 'delete';
  pick: number;
}
/** A change with its record chosen. */
interface Planned {
  t: Change['t'];
  kind: Kind;
  id?: string;
}

/** Keys and names are new across the file: the rows of earlier series stay in the database. */
let made = 0;

function requestOf(change: Planned, tag: string): WireRequest {
  const entity = ENTITY[change.kind];
  if (change.t === 'add')
    return wireRequest(entity, { op: 'add', values: valuesFor(entity, 'add', tag, NO_PARENTS) });
  if (change.t === 'edit')
    return wireRequest(entity, {
      op: 'update',
      id: change.id,
      values: valuesFor(entity, 'update', tag, NO_PARENTS),
    });
  return wireRequest(entity, { op: 'remove', id: change.id });
}

/**
 * Resends a write the balancer could not hand to a process (502 or 503 while a dead process is
 * still in its rotation, or the connection cut): under its Idempotency-Key, a resend of a write
 * that did commit answers the stored reply and changes nothing.
 */
async function deliver(send: () => Promise<ApiReply>): Promise<ApiReply> {
  for (let attempt = 1; ; attempt++) {
    const reply = await send().catch(() => null);
    if (reply && reply.status !== 502 && reply.status !== 503) return reply;
    if (attempt === 50)
      throw new Error(`No process took the write (last: ${reply?.status ?? 'no connection'})`);
    await sleep(200);
  }
}

/** Sends the changes as one commit (a batch when there are several); each item's reply body. */
async function send(client: ReturnType<typeof api>, changes: Planned[], key: string): Promise<unknown[]> {
  const requests = changes.map((c, i) => requestOf(c, `${key}-${i}`));
  if (requests.length === 1) {
    const reply = await deliver(() => client.send(requests[0], { 'Idempotency-Key': key }));
    expect(reply.body, `${changes[0].t} ${changes[0].kind}`).toMatchObject({ success: true });
    return [reply.body];
  }
  const items = requests.map((r, i) => ({
    method: r.method,
    path: r.path,
    query: r.query,
    key: `${key}-${i}`,
    json: r.body,
  }));
  const reply = await deliver(() => client.post(BATCH_PATH, { requests: items }));
  expect(reply.body, 'the batch').toMatchObject({ success: true });
  for (const item of reply.body.replies) expect(item).toMatchObject({ status: 200, body: { success: true } });
  return reply.body.replies.map((r: { body: unknown }) => r.body);
}

/** The rev a change stamped: its row's, or for a deletion its tombstone's. */
async function revOf(cluster: ClusterServer, change: Planned, id: string): Promise<number> {
  const { table, key } = ENTITY[change.kind];
  const rows =
    change.t === 'delete'
      ? await cluster.query<{ rev: string }>(
          'SELECT rev FROM tombstones WHERE entity_table = $1 AND id = $2',
          [table, id],
        )
      : await cluster.query<{ rev: string }>(`SELECT rev FROM ${table} WHERE ${key} = $1`, [id]);
  expect(rows, `the rev of ${change.t} ${change.kind} ${id}`).toHaveLength(1);
  return Number(rows[0].rev);
}

/**
 * Makes one commit through the balancer; resolves with its sequence (the highest rev it
 * stamped) and the records it added. The revs are read before anything else touches these
 * records: a series never gives one record to two changes running at once.
 */
async function commit(
  cluster: ClusterServer,
  client: ReturnType<typeof api>,
  changes: Planned[],
): Promise<{ seq: number; added: Held[] }> {
  const bodies = (await send(client, changes, `live-${++made}`)) as { id?: number }[];
  let seq = 0;
  const added: Held[] = [];
  for (const [i, change] of changes.entries()) {
    const id = change.t === 'add' ? String(bodies[i].id) : change.id!;
    if (change.t === 'add') added.push({ kind: change.kind, id });
    seq = Math.max(seq, await revOf(cluster, change, id));
  }
  return { seq, added };
}

/**
 * Gives each change of a step its kind and record. A record goes to one change of the step at
 * most, so that commits running at once never wait on each other's rows or refuse each other
 * (an edit of a record deleted meanwhile); with no record left an edit or deletion is an add.
 */
function plan(step: Change[][], held: Held[]): Planned[][] {
  const free = [...held];
  return step.map((changes) => {
    const kinds = changes.length > 1 ? BATCHED : KINDS;
    return changes.map(({ t, pick }): Planned => {
      const candidates = free.filter((r) => kinds.includes(r.kind));
      if (t === 'add' || candidates.length === 0) return { t: 'add', kind: kinds[pick % kinds.length] };
      const record = candidates[pick % candidates.length];
      free.splice(free.indexOf(record), 1);
      if (t === 'delete') held.splice(held.indexOf(record), 1);
      return { t, ...record };
    });
  });
}

const change: fc.Arbitrary<Change> = fc.record({
  t: fc.constantFrom<Change['t'][]>('add', 'add', 'add', 'edit', 'edit', 'delete'),
  pick: fc.nat(),
});
/** A commit: one change alone, or a batch of a few. */
const commitArb = fc.oneof(
  { weight: 4, arbitrary: change.map((c) => [c]) },
  { weight: 1, arbitrary: fc.array(change, { minLength: 2, maxLength: 4 }) },
);
/** Steps of one to three commits sent at once. */
const seriesArb = fc.array(fc.array(commitArb, { minLength: 1, maxLength: 3 }), {
  minLength: 3,
  maxLength: 8,
});

interface Listener {
  name: string;
  stream: TestStream;
}

async function heardAtLeast({ name, stream }: Listener, seq: number): Promise<void> {
  await expect
    .poll(() => stream.ids.at(-1) ?? 0, { ...HEARD, message: `${name} announces ${seq}` })
    .toBeGreaterThanOrEqual(seq);
}

function neverDown({ name, stream }: Listener): void {
  expect(stream.ids, `${name}'s announcements`).toEqual([...stream.ids].sort((a, b) => a - b));
  expect(stream.ended, `${name} still open`).toBe(false);
}

async function runSeries(cluster: ClusterServer, listeners: Listener[], series: Change[][][]): Promise<void> {
  const client = api(cluster.apiRoot, await signIn(cluster.apiRoot));
  const held: Held[] = [];
  for (const step of series) {
    const done = await Promise.all(plan(step, held).map((changes) => commit(cluster, client, changes)));
    for (const { added } of done) held.push(...added);
    // Each commit's sequence, not only the step's last: commits at once may come in any order.
    await Promise.all(listeners.flatMap((l) => done.map(({ seq }) => heardAtLeast(l, seq))));
  }
  for (const l of listeners) neverDown(l);
}

describe('every commit through the balancer is announced on every process', () => {
  let cluster: ClusterServer;
  const listeners: Listener[] = [];

  beforeAll(async () => {
    cluster = await startClusterServer({}, 3);
    const cookie = await signIn(cluster.apiRoot);
    // One stream straight on each process, past the balancer, and one through it.
    for (const p of cluster.processes)
      listeners.push({
        name: `process ${p.pid}`,
        stream: await openLiveStream(`http://127.0.0.1:${p.port}/api`, cookie),
      });
    listeners.push({ name: 'haproxy', stream: await openLiveStreamThrough(cluster.apiRoot, cookie) });
  });
  afterAll(async () => {
    for (const { stream } of listeners) stream.close();
    await cluster?.close();
  });

  it(
    'random series of adds, edits, deletions and batches, some at once',
    async () => {
      for (const { name, stream } of listeners) {
        expect(stream.status, name).toBe(200);
        await expect
          .poll(() => stream.ids.length, { ...HEARD, message: `${name}'s first event` })
          .toBeGreaterThan(0);
      }
      await fc.assert(
        fc.asyncProperty(seriesArb, (series) => runSeries(cluster, listeners, series)),
        {
          numRuns: RUNS,
          seed: SEED,
          path: PATH,
          // A failure is about what the server did while the series ran, not the series' shape:
          // shrinking would rerun it against the live cluster for little.
          endOnFailure: true,
          interruptAfterTimeLimit: TEST_TIMEOUT - 30_000,
          markInterruptAsFailure: true,
        },
      );
    },
    TEST_TIMEOUT,
  );
});

describe('a stream resumed after its process is killed', () => {
  let cluster: ClusterServer;
  beforeAll(async () => {
    cluster = await startClusterServer({}, 3);
  });
  afterAll(() => cluster?.close());

  it('starts, with Last-Event-ID, at or past every commit made while it was away, and goes on', async () => {
    const cookie = await signIn(cluster.apiRoot);
    const client = api(cluster.apiRoot, cookie);
    const add = (): Planned[] => [{ t: 'add', kind: 'class' }];
    const first = await openLiveStreamThrough(cluster.apiRoot, cookie);
    const before = await commit(cluster, client, add());
    await heardAtLeast({ name: 'the first stream', stream: first }, before.seq);

    const open = await Promise.all(
      cluster.processes.map((p) => liveStreamsOpen(`http://127.0.0.1:${p.port}`)),
    );
    expect([...open].sort(), 'streams per process').toEqual([0, 0, 1]);
    await cluster.processes[open.indexOf(1)].stop('SIGKILL');
    await expect.poll(() => first.ended, HEARD).toBe(true);
    const lastHeard = first.ids.at(-1)!;

    // Through the two left: a device offline meanwhile would have to pull these.
    let away = 0;
    for (const kind of ['class', 'subject', 'school'] as const)
      away = Math.max(away, (await commit(cluster, client, [{ t: 'add', kind }])).seq);
    expect(away).toBeGreaterThan(lastHeard);

    const resumed = await openLiveStreamThrough(cluster.apiRoot, cookie, {
      'Last-Event-ID': String(lastHeard),
    });
    try {
      await expect
        .poll(() => resumed.ids.length, { ...HEARD, message: 'the first event' })
        .toBeGreaterThan(0);
      expect(resumed.ids[0], 'the first event after reconnecting').toBeGreaterThanOrEqual(away);
      for (let i = 0; i < 2; i++) {
        const later = await commit(cluster, client, add());
        await heardAtLeast({ name: 'the resumed stream', stream: resumed }, later.seq);
      }
      neverDown({ name: 'the resumed stream', stream: resumed });
    } finally {
      resumed.close();
      first.close();
    }
  }, 120_000);
});
