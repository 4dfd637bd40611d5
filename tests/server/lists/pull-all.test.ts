/**
 * The pull of every list in one request (GET sync/changes): the same rows, deletions and order
 * as each list's own delta calls, paged across lists, a few bytes when nothing changed, and a
 * clear refusal of a malformed request.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ROLE_FIELD } from '../../../src/contract/accounts/admins-api';
import { listFieldOf } from '../../../src/contract/endpoints';
import {
  aboutUsEntity,
  classEntity,
  entities,
  resourceTypeEntity,
  schoolEntity,
  subjectEntity,
} from '../../../src/contract/entities';
import type { EntityDescription } from '../../../src/contract/entity';
import { encodePullCursors, PULL_ALL_PATH } from '../../../src/contract/wire';
import { wireRequest } from '../../../src/contract/wire-request';
import { valuesFor } from '../../helpers/entity-values';
import { signedInSuite } from '../../helpers/server';

const suite = signedInSuite({ seedDemo: true });
const lists = entities.filter((e) => !e.single && e.api.list);
const names = [...lists, ...entities.filter((e) => e.single)].map((e) => e.name);

type Row = Record<string, unknown>;
interface Pulled {
  rows: Row[];
  deleted: unknown[];
  cursor: string;
}
type Cursors = Map<string, string>;

const everyListAt = (cursor: string): Cursors => new Map(names.map((n) => [n, cursor]));

/** Pages of the pull of all lists from `cursors` until `more` is false: what each list received. */
async function pullAll(cursors: Cursors, limit?: number) {
  const got = new Map<string, Pulled>();
  const at = new Map(cursors);
  let requests = 0;
  for (;;) {
    requests++;
    const order = names.filter((n) => at.has(n));
    const query = {
      since: encodePullCursors(order.map((n) => [n, at.get(n)!])),
      ...(limit ? { sinceLimit: limit } : {}),
    };
    const { status, body } = await suite.client.get(PULL_ALL_PATH, query);
    expect(status, JSON.stringify(body)).toBe(200);
    const named = new Set<string>();
    for (const { entity, reply } of body.changes as { entity: string; reply: Row }[]) {
      named.add(entity);
      const e = entities.find((x) => x.name === entity)!;
      const list = got.get(entity) ?? { rows: [], deleted: [], cursor: '' };
      list.rows.push(...(e.single ? [reply] : (reply[listFieldOf(e)] as Row[])));
      list.deleted.push(...((reply.deleted as unknown[]) ?? []));
      got.set(entity, list);
      at.set(entity, String(reply.cursor));
    }
    order.slice(0, body.reached).forEach((n) => {
      if (!named.has(n)) at.set(n, body.cursor);
    });
    if (!body.more) return { got, cursors: at, requests };
  }
}

/** One list's own delta pages from `since` (the per-list call). */
async function pullOne(entity: EntityDescription, since: string, limit: number): Promise<Pulled> {
  const out: Pulled = { rows: [], deleted: [], cursor: since };
  for (;;) {
    const request = wireRequest(entity, {
      op: 'list',
      params: { since: out.cursor, sinceLimit: String(limit) },
    });
    const { body } = await suite.client.send(request);
    out.rows.push(...(body[listFieldOf(entity)] as Row[]));
    out.deleted.push(...(body.deleted as unknown[]));
    out.cursor = String(body.cursor);
    if (!body.more) return out;
  }
}

describe('the pull of every list in one request', () => {
  it('brings what every list delta brings, in pages across the lists', async () => {
    const { got, cursors } = await pullAll(everyListAt('0'), 7);
    for (const entity of lists) {
      const own = await pullOne(entity, '0', 5000);
      expect(got.get(entity.name)?.rows ?? [], entity.name).toEqual(own.rows);
      expect(cursors.get(entity.name), entity.name).toBe(own.cursor);
    }
    expect(got.get(aboutUsEntity.name)?.rows).toHaveLength(1);
  });

  it('costs one short request and a few dozen bytes when nothing changed', async () => {
    const { cursors } = await pullAll(everyListAt('0'));
    const since = encodePullCursors(names.map((n) => [n, cursors.get(n)!]));
    const url = `/api/${PULL_ALL_PATH}?since=${encodeURIComponent(since)}`;
    const quiet = await suite.client.get(PULL_ALL_PATH, { since });
    expect(quiet.body).toEqual({
      success: true,
      changes: [],
      reached: names.length,
      cursor: cursors.get('class'),
      more: false,
      // The session's role: the device refreshes what it offers on every pull.
      [ROLE_FIELD]: 'Owner',
    });
    expect(JSON.stringify(quiet.body).length).toBeLessThan(100);
    expect(url.length).toBeLessThan(400);
  });

  it('sends a single document again only after it changed', async () => {
    const start = (await pullAll(everyListAt('0'))).cursors;
    expect((await pullAll(start)).got.has(aboutUsEntity.name)).toBe(false);
    await suite.client.send(
      wireRequest(aboutUsEntity, { op: 'update', values: { content: '<p>Changed once</p>' } }),
    );
    const after = await pullAll(start);
    expect(after.got.get(aboutUsEntity.name)?.rows).toMatchObject([{ content: '<p>Changed once</p>' }]);
    expect(after.got.size).toBe(1);
  });

  it('names the lists it does not have and refuses a malformed request', async () => {
    const unknown = await suite.client.get(PULL_ALL_PATH, { since: 'class:0,spaceships' });
    expect(unknown.body).toMatchObject({ success: true, unknown: ['spaceships'], reached: 2 });
    for (const since of ['', 'class', 'class:yesterday', 'class:0,class:1', 'class:0;drop']) {
      const { status, body } = await suite.client.get(PULL_ALL_PATH, { since });
      expect({ since, status, success: body.success }).toEqual({ since, status: 400, success: false });
      expect(body.message).toMatch(/^since must name each list once/);
    }
    for (const sinceLimit of ['0', '5001', 'ten']) {
      const { status } = await suite.client.get(PULL_ALL_PATH, { since: 'class:0', sinceLimit });
      expect(status).toBe(400);
    }
  });
});

/** Writes the property draws: adds, edits and deletes of lists without required files. */
const written = [classEntity, subjectEntity, resourceTypeEntity, schoolEntity];

describe('the pull of every list matches the per-list deltas (property)', () => {
  it('after any series of changes, for any page sizes', async () => {
    const runs = Number(process.env.PROPERTY_RUNS || 6);
    const op = fc.record({
      entity: fc.constantFrom(...written),
      kind: fc.constantFrom('add', 'add', 'update', 'remove'),
      pick: fc.nat(),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(op, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 1, max: 9 }),
        async (ops, allLimit, oneLimit) => {
          const start = (await pullAll(everyListAt('0'))).cursors;
          await applyChanges(ops);
          const { got, cursors } = await pullAll(start, allLimit);
          for (const entity of lists) {
            const own = await pullOne(entity, start.get(entity.name)!, oneLimit);
            const mine = got.get(entity.name) ?? { rows: [], deleted: [] };
            expect(mine.rows, entity.name).toEqual(own.rows);
            expect(mine.deleted, entity.name).toEqual(own.deleted);
            expect(cursors.get(entity.name), entity.name).toBe(own.cursor);
          }
        },
      ),
      { numRuns: runs, seed: 2711 },
    );
  }, 300_000);
});

/** Rows this suite added, by entity: edits and deletes pick among them (no children of theirs). */
const added = new Map<string, string[]>();

async function applyChanges(ops: { entity: EntityDescription; kind: string; pick: number }[]) {
  const created = new Map([['class', '1']]);
  for (const { entity, kind, pick } of ops) {
    const mine = added.get(entity.name) ?? [];
    const id = mine.length > 0 ? mine[pick % mine.length] : undefined;
    if (kind === 'add' || id === undefined) {
      const tag = `p${pick}`;
      const reply = await suite.client.send(
        wireRequest(entity, { op: 'add', values: valuesFor(entity, 'add', tag, created) }),
      );
      expect(reply.body.success, JSON.stringify(reply.body)).toBe(true);
      added.set(entity.name, [...mine, String(reply.body.id)]);
    } else if (kind === 'update' || !entity.api.remove) {
      const values = valuesFor(entity, 'update', `u${pick}`, created);
      await suite.client.send(wireRequest(entity, { op: 'update', id, values }));
    } else {
      await suite.client.send(wireRequest(entity, { op: 'remove', id }));
      added.set(
        entity.name,
        mine.filter((x) => x !== id),
      );
    }
  }
}
