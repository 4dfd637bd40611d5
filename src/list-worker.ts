/// <reference lib="webworker" />
/**
 * The list worker: the window's list engine (src/db/list-engine/) off its main thread. It
 * opens the same local store, loads an entity's list index when a screen first asks for it,
 * and answers the screens' list queries (protocol.ts): a typed search, a header click or a page
 * jump never waits for the window's own work, and the window never holds a hundred thousand
 * rows. Long sorts pause so that newer queries get through; each list is answered with its
 * newest query only (watches.ts). An answer carries its page's rows (read by key, with
 * parents' names and pending marks), and a list answers again when its entity's rows, its
 * parents' or the outbox change.
 */
import { entities, entityByName } from './contract/entities';
import { errorMessage } from './db/error-message';
import { CountWatches } from './db/list-engine/count-watches';
import { ListEngine, type PageQuery } from './db/list-engine/engine';
import { measure } from './db/list-engine/list-timing';
import type { Pause } from './db/list-engine/order';
import type { FromWorker, ShownPage, ToWorker } from './db/list-engine/protocol';
import { engineSpecs } from './db/list-engine/spec';
import { PageWatches } from './db/list-engine/watches';
import { openLocalDb } from './db/open';
import { shownPage } from './db/queries';

declare const self: DedicatedWorkerGlobalScope;

/** Yields to the message loop (a MessageChannel turn: sooner than a clamped timer). */
const channel = new MessageChannel();
const waiting: (() => void)[] = [];
channel.port1.onmessage = () => waiting.shift()?.();
const pause = () =>
  new Promise<void>((resolve) => {
    waiting.push(resolve);
    channel.port2.postMessage(null);
  });

/**
 * Yields to every other task: work computed ahead of use (orders nobody has asked for yet)
 * continues as a background task, so a query's reads and replies, which are ordinary tasks,
 * never wait behind its slices (with the message-loop turn above, each of a page's reads
 * could wait a slice). Chromium has `scheduler.postTask`; without it, the turn above. Its
 * slices are short: a query's reads leave this thread idle, a slice starts meanwhile, and each
 * read's reply waits for it to end (8 ms slices added 20-30 ms to the first keystroke after a
 * list opened, while its title's order was computed).
 */
const scheduler = (
  self as { scheduler?: { postTask(task: () => void, o: { priority: string }): Promise<void> } }
).scheduler;
const behindOthers = scheduler ? () => scheduler.postTask(() => {}, { priority: 'background' }) : pause;

/**
 * How long after an answer work computed ahead waits: the window renders and paints the answer
 * meanwhile, and on a two-core tablet a slice running then takes the core the paint wants (the
 * first keystrokes after a list opened painted 10-30 ms later while its title's order was
 * computed). Not while an answer is worked out: it may wait for this work's sort.
 */
const GIVE_WAY_MS = 50;
const pauseBehind: Pause = Object.assign(
  async () => {
    await behindOthers();
    // Until GIVE_WAY_MS after the last answer, however many come meanwhile.
    for (let wait = GIVE_WAY_MS - watches.sinceAnswer(); wait > 0; wait = GIVE_WAY_MS - watches.sinceAnswer())
      await new Promise((resolve) => setTimeout(resolve, wait));
  },
  { sliceMs: 2 },
);

const db = openLocalDb();
const engine = new ListEngine(db, engineSpecs(entities), { pause });
const post = (message: FromWorker) => self.postMessage(message);

/** A page as a list shows it: the engine's answer and its rows, read by key. */
async function pageOf(entity: string, query: PageQuery): Promise<ShownPage> {
  const started = performance.now();
  const answer = await engine.page(entity, query);
  const computed = measure(`page ${entity}`, started);
  // Parents' names from the indexes in memory: the page's rows are one read of the store.
  const shown = await shownPage(db, entityByName(entity), answer, (parent) => engine.loadedTitles(parent));
  measure(`page rows ${entity}`, computed);
  return shown;
}

/** Entities whose orders are computed (or being computed) ahead of use. */
const warmed = new Set<string>();
const QUIET_MS = 300;

/**
 * After a list's first answer, the orders its headers will ask for are computed ahead: the
 * title's at once, the others in quiet moments (one field at a time, each after no answer for
 * a while). All as background tasks, so typing right after a list opens goes first.
 */
function warm(entity: string): void {
  if (warmed.has(entity)) return;
  warmed.add(entity);
  const quiet = async () => {
    while (!watches.quietFor(QUIET_MS)) await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
  };
  engine
    .warm(entity, quiet, pauseBehind)
    .catch((error) => console.error('List warm-up failed:', errorMessage(error)));
}

const watches = new PageWatches(pageOf, post, warm);

const countWatches = new CountWatches(engine, db, post);

// Rows, parents' names and the outbox (pending marks) that moved: the engine says which lists
// and which counts.
engine.onChange((changed) => {
  watches.refresh(changed);
  countWatches.entitiesChanged(changed);
});

async function reply(seq: number, work: () => Promise<unknown>): Promise<void> {
  try {
    post({ type: 'reply', seq, result: await work() });
  } catch (error) {
    post({ type: 'refused', seq, message: errorMessage(error) });
  }
}

let started = false;
self.onmessage = (event: MessageEvent<ToWorker>) => {
  const m = event.data;
  if (!started) {
    started = true;
    measure('worker start to first message', 0);
  }
  switch (m.type) {
    case 'watch':
      watches.watch(m.id, m.seq, m.entity, m.query);
      return;
    case 'unwatch':
      watches.unwatch(m.id);
      return;
    case 'watchCounts':
      countWatches.watch(m.id, m.asked);
      return;
    case 'unwatchCounts':
      countWatches.unwatch(m.id);
      return;
    case 'position':
      void reply(m.seq, () => engine.position(m.entity, m.query, m.key));
      return;
    case 'keys':
      void reply(m.seq, () => engine.keys(m.entity, m.query, m.offset, m.limit));
      return;
  }
};
