/// <reference lib="webworker" />
/**
 * The first sync benchmark's sync (bench/first-sync-page.ts asks for it): the app's real pull
 * into the named database, in a dedicated worker as the app runs it (src/sync-worker.ts), with
 * the pull's User Timing summed over it. For an interrupted sync, it asks the page to reload
 * once the given number of delta pages has arrived.
 */
import { entities } from '../src/contract/entities';
import { DELTA_PARAM, PULL_ALL_PATH } from '../src/contract/wire';
import { openLocalDb } from '../src/db/open';
import { type ApiClient, createApi } from '../src/sync/api/api-client';
import { PULL_SIZES, pull } from '../src/sync/pull/pull';
import { PUT_SLICES } from '../src/sync/pull/pull-apply';
import { API_ROOT } from '../src/sync/sync-settings';

declare const self: DedicatedWorkerGlobalScope;

export interface SyncFigures {
  ms: number;
  students: number;
  /** The pull's User Timing ('pull rows', 'pull wait', …): total ms by name, over the sync. */
  timing: Record<string, number>;
}

export interface Sizes {
  page: number;
  slice: number;
  taskMs: number;
  ahead: number;
}

export interface SyncAsked {
  dbName: string;
  reloadAfterPages: number;
  /** Other sizes than the app's, to compare (BENCH_SYNC_SIZES). */
  sizes?: Sizes;
}

export type FromSyncer =
  | { type: 'synced'; figures: SyncFigures }
  | { type: 'failed'; message: string }
  | { type: 'reload' };

const api = createApi({ root: API_ROOT, timeoutMs: 60_000 });
const students = entities.find((e) => e.table === 'students')!;
const post = (message: FromSyncer) => self.postMessage(message);

/** An API client that asks for a reload once `pages` delta pages (of every list, or of students) have arrived. */
function reloadingAfter(pages: number): ApiClient {
  let seen = 0;
  return {
    ...api,
    async request(path, options) {
      const outcome = await api.request(path, options);
      if (
        (path === PULL_ALL_PATH || path.endsWith('fetchstudents.php')) &&
        options.query?.[DELTA_PARAM] !== undefined &&
        ++seen === pages
      )
        post({ type: 'reload' });
      return outcome;
    },
  };
}

/** Sums the pull's measures while `run` runs (an observer: the pull clears old measures now and then). */
async function timed<T>(run: () => Promise<T>): Promise<{ result: T; timing: Record<string, number> }> {
  const timing: Record<string, number> = {};
  const add = (entries: PerformanceEntryList) => {
    for (const e of entries)
      if (e.name.startsWith('pull ')) timing[e.name.slice(5)] = (timing[e.name.slice(5)] ?? 0) + e.duration;
  };
  const observer = new PerformanceObserver((list) => add(list.getEntries()));
  observer.observe({ type: 'measure' });
  try {
    const result = await run();
    add(observer.takeRecords());
    return { result, timing };
  } finally {
    observer.disconnect();
  }
}

async function sync({ dbName, reloadAfterPages, sizes }: SyncAsked): Promise<SyncFigures> {
  if (sizes) {
    Object.assign(PULL_SIZES, { deltaPage: sizes.page, ahead: sizes.ahead });
    Object.assign(PUT_SLICES, { size: sizes.slice, taskMs: sizes.taskMs });
  }
  const db = openLocalDb(dbName);
  await db.open();
  const started = performance.now();
  const { result, timing } = await timed(() =>
    pull({ db, api: reloadAfterPages ? reloadingAfter(reloadAfterPages) : api }),
  );
  const ms = performance.now() - started;
  if (!result.ok) throw new Error(`Pull failed: ${result.message}`);
  const figures = { ms, students: await db.rows(students).count(), timing };
  db.close();
  return figures;
}

self.onmessage = (event: MessageEvent<SyncAsked>) =>
  sync(event.data).then(
    (figures) => post({ type: 'synced', figures }),
    (error: unknown) =>
      post({ type: 'failed', message: error instanceof Error ? error.message : String(error) }),
  );
