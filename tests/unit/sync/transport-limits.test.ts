/**
 * How many requests the transport has open at once (src/sync/transport.ts): requests that
 * travel alone at most `maxAlone` (6 by default), batches at most `maxBatches` (2 when the
 * server does not say how many it applies at once, one more than that when it does, 4 at
 * most), and every request still gets its own outcome, in the order given. The server is a
 * stub that holds each request until the test lets the open ones go, one wave at a time.
 */
import { describe, expect, it } from 'vitest';
import { BATCH_PATH } from '../../../src/contract/batch';
import { classEntity } from '../../../src/contract/entities';
import { wireRequest } from '../../../src/contract/wire-request';
import type { ApiClient, ApiOutcome } from '../../../src/sync/api/api-client';
import { createTransport, type Outgoing } from '../../../src/sync/transport';

/**
 * A server that answers nothing until `releaseAll`; counts what is open at once, per kind.
 * With `appliesAtOnce`, it applies batches and says so in each batch reply; without, it
 * answers every batch 503.
 */
function heldServer(appliesAtOnce?: number) {
  /** The keys of each batch's items, in the order the batches left. */
  const sent: string[][] = [];
  const open = { alone: 0, batches: 0 };
  const most = { alone: 0, batches: 0 };
  const held: (() => void)[] = [];
  const api: ApiClient = {
    root: 'http://stub/api',
    getList: async () => ({ kind: 'refused', status: 404 }),
    request: (path, options) => {
      const kind = path === BATCH_PATH ? 'batches' : 'alone';
      const requests = (options?.json as { requests?: { key?: string }[] } | undefined)?.requests ?? [];
      if (kind === 'batches') sent.push(requests.map((r) => r.key ?? ''));
      open[kind] += 1;
      most[kind] = Math.max(most[kind], open[kind]);
      return new Promise<ApiOutcome>((resolve) =>
        held.push(() => {
          open[kind] -= 1;
          if (kind === 'batches' && appliesAtOnce !== undefined) {
            const replies = requests.map((r) => ({
              status: 200,
              body: { success: true, key: r.key },
              replayed: false,
            }));
            resolve({
              kind: 'reply',
              status: 200,
              body: { success: true, replies, appliesAtOnce },
              replayed: false,
            });
            return;
          }
          // A batch answered 503 gives each of its items that outcome; a lone request says where it went.
          resolve({
            kind: 'reply',
            status: kind === 'batches' ? 503 : 200,
            body: { success: kind === 'alone', path },
            replayed: false,
          });
        }),
      );
    },
  };
  /** Lets every open request go, wave after wave, until `work` is done. */
  async function releaseAll<T>(work: Promise<T>): Promise<T> {
    let done = false;
    void work.then(() => {
      done = true;
    });
    while (!done) {
      // A macrotask: every request the limits let start has started.
      await new Promise((r) => setTimeout(r, 0));
      for (const go of held.splice(0)) go();
    }
    return work;
  }
  return { api, most, sent, releaseAll };
}

const list = (page: number): Outgoing => ({
  request: wireRequest(classEntity, { op: 'list', params: { page: String(page), limit: '10' } }),
});
const add = (n: number): Outgoing => ({
  request: wireRequest(classEntity, { op: 'add', values: { class_name: `Class ${n}` } }),
  key: `limits-${n}`,
});

describe('requests open at once', () => {
  it('at most six requests that travel alone, each answered in order', async () => {
    const server = heldServer();
    const transport = createTransport(server.api);
    const items = Array.from({ length: 20 }, (_, i) => list(i + 1));
    const outcomes = await server.releaseAll(transport.sendAll(items));
    expect(server.most.alone).toBe(6);
    expect(outcomes.map((o) => (o.kind === 'reply' ? o.body.path : o.kind))).toEqual(
      items.map((o) => o.request.path),
    );
  });

  it('at most two batches, however many rounds of them', async () => {
    const server = heldServer();
    const transport = createTransport(server.api, { maxItems: 1 });
    const outcomes = await server.releaseAll(transport.sendAll(Array.from({ length: 7 }, (_, i) => add(i))));
    expect(server.most.batches).toBe(2);
    expect(server.most.alone).toBe(0);
    expect(outcomes.map((o) => (o.kind === 'reply' ? o.status : o.kind))).toEqual(Array(7).fill(503));
  });

  it('one more batch than the server says it applies at once, from its first batch reply on', async () => {
    const server = heldServer(3);
    const transport = createTransport(server.api, { maxItems: 1 });
    const outcomes = await server.releaseAll(transport.sendAll(Array.from({ length: 12 }, (_, i) => add(i))));
    expect(server.most.batches).toBe(4);
    expect(outcomes.map((o) => (o.kind === 'reply' ? o.status : o.kind))).toEqual(Array(12).fill(200));
    // The next transport on the same client starts from what the server said: four at once
    // from the first wave (it would send two, then the last two, without).
    server.most.batches = 0;
    const again = createTransport(server.api, { maxItems: 1 });
    await server.releaseAll(again.sendAll(Array.from({ length: 4 }, (_, i) => add(i))));
    expect(server.most.batches).toBe(4);
  });

  it('at most four batches, whatever the server says, and two for a server that applies one', async () => {
    const eager = heldServer(50);
    await eager.releaseAll(
      createTransport(eager.api, { maxItems: 1 }).sendAll(Array.from({ length: 12 }, (_, i) => add(i))),
    );
    expect(eager.most.batches).toBe(4);
    const single = heldServer(1);
    await single.releaseAll(
      createTransport(single.api, { maxItems: 1 }).sendAll(Array.from({ length: 12 }, (_, i) => add(i))),
    );
    expect(single.most.batches).toBe(2);
  });

  it('limits given as options hold too', async () => {
    const server = heldServer();
    const transport = createTransport(server.api, { maxAlone: 2, maxBatches: 1, maxItems: 1 });
    await server.releaseAll(
      transport.sendAll([...Array.from({ length: 5 }, (_, i) => list(i + 1)), add(1), add(2)]),
    );
    expect(server.most).toEqual({ alone: 2, batches: 1 });
  });
});

describe('batches waiting for a slot', () => {
  it('take in the items of later rounds while they have room, each item keeping its own outcome', async () => {
    const server = heldServer(1);
    const transport = createTransport(server.api, { maxBatches: 1, maxItems: 3 });
    // The first round's batch leaves at once; the next rounds come while it is at the server.
    const first = transport.sendAll([add(1), add(2)]);
    await new Promise((r) => setTimeout(r, 0));
    const rounds = [
      transport.sendAll([add(3)]),
      transport.sendAll([add(4), add(5)]),
      transport.sendAll([add(6)]),
    ];
    const outcomes = await server.releaseAll(Promise.all([first, ...rounds]));
    // Rounds of one and two items went as one batch of three, not three batches.
    expect(server.sent).toEqual([
      ['limits-1', 'limits-2'],
      ['limits-3', 'limits-4', 'limits-5'],
      ['limits-6'],
    ]);
    expect(outcomes.map((round) => round.map((o) => (o.kind === 'reply' ? o.body.key : o.kind)))).toEqual([
      ['limits-1', 'limits-2'],
      ['limits-3'],
      ['limits-4', 'limits-5'],
      ['limits-6'],
    ]);
  });
});
