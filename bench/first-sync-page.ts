/**
 * The first sync benchmark's page: the app's real local store (Dexie on the profile's on-disk
 * IndexedDB), API client, sign-in and pull (in a worker, bench/first-sync-worker.ts), driven
 * from Node by bench/first-sync.mjs through `window.bench`. Beside it, the floor: the same rows, fetched beforehand in the same pages,
 * written by plain bulkPut (one transaction per page) into a fresh database with the same
 * tables and indexes, with no app logic.
 */
import Dexie from 'dexie';
import { entities } from '../src/contract/entities';
import { DELTA_CURSOR_FIELD, DELTA_LIMIT_PARAM, DELTA_MORE_FIELD, DELTA_PARAM } from '../src/contract/wire';
import { wireRequest } from '../src/contract/wire-request';
import { storesFor } from '../src/db/database';
import { readCursor, readListProgress } from '../src/db/meta';
import { openLocalDb } from '../src/db/open';
import { createApi } from '../src/sync/api/api-client';
import { signIn } from '../src/sync/api/sign-in-requests';
import { PULL_SIZES } from '../src/sync/pull/pull';
import { API_ROOT } from '../src/sync/sync-settings';
import type { FromSyncer, Sizes, SyncAsked, SyncFigures } from './first-sync-worker';

const api = createApi({ root: API_ROOT, timeoutMs: 60_000 });
const lists = entities.filter((e) => e.api.list && !e.single);
const students = lists.find((e) => e.table === 'students')!;

export type { SyncFigures };

/**
 * The sync, where the app runs it: in a dedicated worker (src/sync-worker.ts), whose tasks
 * and garbage collections never hold up the page's main thread. A reload asked for by the
 * worker (an interrupted sync) is the page's.
 */
const syncer = new Worker(new URL('./first-sync-worker.ts', import.meta.url), {
  type: 'module',
  name: 'sync',
});
let sizesAsked: Sizes | undefined;

function sync(dbName: string, reloadAfterPages = 0): Promise<SyncFigures> {
  return new Promise((resolve, reject) => {
    syncer.onmessage = ({ data }: MessageEvent<FromSyncer>) => {
      if (data.type === 'reload') location.reload();
      else if (data.type === 'synced') resolve(data.figures);
      else reject(new Error(data.message));
    };
    syncer.postMessage({ dbName, reloadAfterPages, sizes: sizesAsked } satisfies SyncAsked);
  });
}

/** What an interrupted sync left: the students' cursor and progress. */
async function left(dbName: string) {
  const db = openLocalDb(dbName);
  await db.open();
  const out = {
    cursor: await readCursor(db, 'students'),
    progress: await readListProgress(db, 'students'),
    students: await db.rows(students).count(),
  };
  db.close();
  return out;
}

type FloorPage = { table: string; rows: Record<string, unknown>[] };

/** Every list's rows in the same pages as the pull's, for the floor. */
async function floorPages(): Promise<FloorPage[]> {
  const pages: FloorPage[] = [];
  for (const entity of lists) {
    let since = '0';
    for (;;) {
      const request = wireRequest(entity, {
        op: 'list',
        params: { [DELTA_PARAM]: since, [DELTA_LIMIT_PARAM]: String(PULL_SIZES.deltaPage) },
      });
      const url = new URL(`${api.root}/${request.path}`);
      for (const [k, v] of Object.entries(request.query)) url.searchParams.set(k, String(v));
      const body = await (await fetch(url, { credentials: 'include' })).json();
      if (!body.success) throw new Error(`${request.path}: ${JSON.stringify(body)}`);
      const rows = (body[entity.api.listField ?? entity.table] as Record<string, unknown>[]).map((r) => ({
        ...r,
        [entity.key]: String(r[entity.key]),
      }));
      pages.push({ table: entity.table, rows });
      since = body[DELTA_CURSOR_FIELD];
      if (!body[DELTA_MORE_FIELD]) break;
    }
  }
  return pages;
}

/** The pages written by plain bulkPut, one transaction each, into a fresh database. */
async function floorWrite(
  dbName: string,
  pages: FloorPage[],
): Promise<{ ms: number; rows: number; pages: number }> {
  const db = new Dexie(dbName);
  db.version(1).stores(storesFor(entities));
  await db.open();
  const started = performance.now();
  for (const page of pages) await db.table(page.table).bulkPut(page.rows);
  const ms = performance.now() - started;
  db.close();
  return { ms, rows: pages.reduce((n, p) => n + p.rows.length, 0), pages: pages.length };
}

/** The floor: every list's rows in the same pages, fetched first (not timed), then only written. */
const floor = async (dbName: string) => floorWrite(dbName, await floorPages());

/**
 * The same pages written by plain bulkPut, one transaction each, into the app's own store (its
 * list index kept by the middleware beside the rows): what the rows and the index cost to
 * write, without the pull's outbox read, cursor, progress and slices.
 */
async function indexedFloor(dbName: string): Promise<{ ms: number }> {
  const pages = await floorPages();
  const db = openLocalDb(dbName);
  await db.open();
  const started = performance.now();
  for (const page of pages) await db.table(page.table).bulkPut(page.rows);
  const ms = performance.now() - started;
  db.close();
  return { ms };
}

/** The floor's pages, fetched and kept in the page (a profiler measures the writing alone). */
let keptPages: FloorPage[] = [];

const bench = {
  signIn: (username: string, password: string) => signIn(api, username, password).then((r) => r.ok),
  sync,
  left,
  floor,
  indexedFloor,
  fetchFloorPages: async () => {
    keptPages = await floorPages();
  },
  writeFloorPages: (dbName: string) => floorWrite(dbName, keptPages),
  remove: (dbName: string) => Dexie.delete(dbName),
  /** Other sizes than the app's, to compare (BENCH_SYNC_SIZES). */
  sizes: (page: number, slice: number, taskMs: number, ahead = 2) => {
    sizesAsked = { page, slice, taskMs, ahead };
    PULL_SIZES.deltaPage = page;
  },
};
(window as unknown as { bench: typeof bench }).bench = bench;
document.title = 'bench ready';
