/**
 * A first sync in pages, against the real server over HTTP on fake-indexeddb:
 * an interrupted sync resumes at the last page written and ends with every row exactly once;
 * the list's progress is written with each page (rows received of the total) and removed at
 * the end; against the legacy server (whole lists) the rows go in shares, each with progress,
 * and the rows the server lacks are removed only once the whole list is in. Small pages
 * (PULL_SIZES) so that a few dozen rows make several.
 */
import Dexie from 'dexie';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { classEntity, subjectEntity } from '../../src/contract/entities';
import { DELTA_LIMIT_PARAM, DELTA_MAX_PAGE, DELTA_PARAM, PULL_ALL_PATH } from '../../src/contract/wire';
import type { LocalDb } from '../../src/db/database';
import { type ListProgress, readCursor, readListProgress } from '../../src/db/meta';
import { mutate } from '../../src/db/mutate';
import type { ApiClient } from '../../src/sync/api/api-client';
import { PULL_SIZES, pull } from '../../src/sync/pull/pull';
import { startTestServer, type TestServer } from '../helpers/server';
import { syncFixtures } from '../helpers/sync-client';

const fixtures = syncFixtures();
const sizes = { ...PULL_SIZES };
beforeEach(() => {
  PULL_SIZES.deltaPage = 7;
  PULL_SIZES.wholeListShare = 8;
});
afterEach(() => Object.assign(PULL_SIZES, sizes));

const CLASSES = 40;

/**
 * Every value each list's progress takes, in order (null: removed), by local table, from the
 * meta table's hooks.
 */
function recordProgress(db: LocalDb): Record<string, (ListProgress | null)[]> {
  const seen: Record<string, (ListProgress | null)[]> = {};
  const table = (key: unknown) => {
    if (typeof key !== 'string' || !key.startsWith('progress:')) return null;
    seen[key.slice(9)] ??= [];
    return seen[key.slice(9)];
  };
  db.meta.hook('creating', (k, obj) => {
    table(k)?.push(structuredClone(obj.value as ListProgress));
  });
  db.meta.hook('updating', (mods, k, obj) => {
    const next = structuredClone(obj);
    for (const [path, value] of Object.entries(mods)) Dexie.setByKeyPath(next, path, value);
    table(k)?.push(next.value as ListProgress);
  });
  db.meta.hook('deleting', (k) => {
    table(k)?.push(null);
  });
  return seen;
}

type ClassPage = { classes: { class_id: number }[]; cursor: string };

/** The classes' part of a reply: the pull of every list's entry, or the list's own delta. */
function classPage(path: string, body: Record<string, unknown>): ClassPage | undefined {
  if (path !== PULL_ALL_PATH) return body as unknown as ClassPage;
  const changes = body.changes as { entity: string; reply: ClassPage }[];
  return changes.find((c) => c.entity === classEntity.name)?.reply;
}

/**
 * The API client, keeping the classes' delta replies it passes on; `failFrom`: the pull
 * request (of every list, or of the classes) from which on the network fails.
 * `listByList`: the server seems to lack the pull of every list (an older server of ours).
 */
function watched(api: ApiClient, listByList: boolean, failFrom = Number.POSITIVE_INFINITY) {
  const replies: ClassPage[] = [];
  let n = 0;
  const isPull = (path: string) => path === (listByList ? classEntity.api.list : PULL_ALL_PATH);
  const client: ApiClient = {
    ...api,
    async request(path, options) {
      if (listByList && path === PULL_ALL_PATH)
        return { kind: 'reply', status: 404, body: { success: false }, replayed: false };
      if (isPull(path) && ++n >= failFrom) return { kind: 'unreachable', error: 'Connection reset' };
      const outcome = await api.request(path, options);
      const page = isPull(path) && outcome.kind === 'reply' ? classPage(path, outcome.body) : undefined;
      if (page) replies.push(page);
      return outcome;
    },
  };
  return { client, replies };
}

describe('a first sync in pages', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
    await server.query(
      `INSERT INTO classes (class_name) SELECT 'Class ' || n FROM generate_series(1, ${CLASSES}) AS n`,
    );
    await server.query("INSERT INTO subjects (subject_name, subject_content) VALUES ('One', '<p>1</p>')");
  });
  afterAll(() => server?.close());

  it.each([
    ['every list in one request', false],
    ['list by list', true],
  ])(
    'interrupted after three pages, resumes at the fourth and ends with every row exactly once (%s)',
    async (_, listByList) => {
      const ctx = await fixtures.client(server.apiRoot);
      const recorded = recordProgress(ctx.db);
      recorded[classEntity.table] = [];
      const progress = recorded[classEntity.table];

      // The fourth request fails: three pages arrived (the fourth was asked for while the third was written).
      const first = watched(ctx.api, listByList, 4);
      expect(await pull({ db: ctx.db, api: first.client })).toMatchObject({
        ok: false,
        reason: 'unreachable',
      });
      expect(first.replies).toHaveLength(3);
      expect(await ctx.db.rows(classEntity).count()).toBe(21);
      expect(await readCursor(ctx.db, classEntity.table)).toBe(first.replies[2].cursor);
      expect(progress).toEqual([
        { received: 7, total: CLASSES, cursor: first.replies[0].cursor },
        { received: 14, total: CLASSES, cursor: first.replies[1].cursor },
        { received: 21, total: CLASSES, cursor: first.replies[2].cursor },
      ]);
      expect(await readListProgress(ctx.db, classEntity.table)).toEqual(progress[2]);

      const second = watched(ctx.api, listByList);
      expect(await pull({ db: ctx.db, api: second.client })).toEqual({ ok: true });
      // It went on from the cursor, counting on: 28, 35, then the last page (5 rows) removes it.
      expect(progress.slice(3)).toEqual([
        { received: 28, total: CLASSES, cursor: second.replies[0].cursor },
        { received: 35, total: CLASSES, cursor: second.replies[1].cursor },
        null,
      ]);
      const sent = [...first.replies, ...second.replies].flatMap((r) => r.classes.map((c) => c.class_id));
      expect(sent).toHaveLength(CLASSES);
      expect(new Set(sent).size).toBe(CLASSES);
      const onServer = await server.query<{ class_id: number; class_name: string }>(
        'SELECT class_id, class_name FROM classes ORDER BY class_id',
      );
      const local = await ctx.db.rows(classEntity).orderBy('class_id').toArray();
      expect(
        local.map((r) => [Number(r.class_id), r.class_name]).sort((a, b) => Number(a[0]) - Number(b[0])),
      ).toEqual(onServer.map((r) => [r.class_id, r.class_name]));
      expect(await readListProgress(ctx.db, classEntity.table)).toBeNull();
      expect(await readCursor(ctx.db, classEntity.table)).toBe(second.replies.at(-1)!.cursor);
      // A list that fits one page (the subject) writes no progress at all.
      expect(await ctx.db.rows(subjectEntity).count()).toBe(1);
      expect(Object.keys(recorded)).toEqual([classEntity.table]);
    },
  );

  it("by default asks for pages of the server's most changes (fewer transactions per sync)", async () => {
    Object.assign(PULL_SIZES, sizes);
    const ctx = await fixtures.client(server.apiRoot);
    const limits: unknown[] = [];
    const api: ApiClient = {
      ...ctx.api,
      request(path, options) {
        if (options.query?.[DELTA_PARAM] !== undefined) limits.push(options.query[DELTA_LIMIT_PARAM]);
        return ctx.api.request(path, options);
      },
    };
    expect(await pull({ db: ctx.db, api })).toEqual({ ok: true });
    expect(limits.length).toBeGreaterThan(0);
    expect(new Set(limits)).toEqual(new Set([String(DELTA_MAX_PAGE)]));
    // The 40 classes came in one page: a list that fits one page shows no progress.
    expect(await ctx.db.rows(classEntity).count()).toBe(CLASSES);
    expect(await readListProgress(ctx.db, classEntity.table)).toBeNull();
  });
});

describe('a first sync from the legacy server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ legacy: true });
    await server.query(
      `INSERT INTO classes (class_name) SELECT 'Class ' || n FROM generate_series(1, ${CLASSES}) AS n`,
    );
  });
  afterAll(() => server?.close());

  it('writes the whole list in shares, then removes what the server lacks', async () => {
    const ctx = await fixtures.client(server.apiRoot);
    const table = ctx.db.rows(classEntity);
    // A row the server does not have, a queued edit of one it has, and a queued add.
    await table.bulkPut([
      { class_id: '9999', class_name: 'Gone from the server', sort_order: 0 },
      { class_id: '3', class_name: 'Class 3', sort_order: 0 },
    ]);
    await mutate(ctx.db, { op: 'update', entity: classEntity, key: '3', values: { class_name: 'Mine' } });
    const added = await mutate(ctx.db, {
      op: 'add',
      entity: classEntity,
      values: { class_name: 'Made here' },
    });
    const progress = recordProgress(ctx.db);

    expect(await pull(ctx)).toEqual({ ok: true });
    expect(progress[classEntity.table]).toEqual([
      ...[8, 16, 24, 32, 40].map((received) => ({ received, total: CLASSES, cursor: null })),
      null,
    ]);
    expect(await table.get('9999')).toBeUndefined();
    expect((await table.get('3'))?.class_name).toBe('Mine');
    expect((await table.get(added.key))?.class_name).toBe('Made here');
    expect(await table.count()).toBe(CLASSES + 1);
  });
});
