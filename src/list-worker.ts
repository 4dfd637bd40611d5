/// <reference lib="webworker" />
/**
 * The list worker: the window's list engine (src/db/list-engine/) off its main thread. It
 * opens the same local store, loads an entity's list index when a screen first asks for it,
 * and answers the screens' list queries (protocol.ts): a typed search, a header click or a page
 * jump never waits for the window's own work, and the window never holds a hundred thousand
 * rows. Long sorts pause so that newer queries get through; a query superseded before it
 * starts is never run, and one superseded while it ran is not posted. An answer carries its
 * page's rows (read by key, with parents' names and pending marks), and a list answers again
 * when its entity's rows, its parents' or the outbox change.
 */
import Dexie from 'dexie';
import { entities, entityByName } from './contract/entities';
import { ListEngine, type PageQuery } from './db/list-engine/engine';
import type { FromWorker, ToWorker } from './db/list-engine/protocol';
import { engineSpecs } from './db/list-engine/spec';
import { openLocalDb } from './db/open';
import { pageRows } from './db/queries';

declare const self: DedicatedWorkerGlobalScope;

/** Yields to the message loop (a MessageChannel turn: sooner than a clamped timer). */
const channel = new MessageChannel();
const waiting: (() => void)[] = [];
channel.port1.onmessage = () => waiting.shift()?.();
const turn = () =>
  new Promise<void>((resolve) => {
    waiting.push(resolve);
    channel.port2.postMessage(null);
  });
const pause = turn;

/** Answers being worked out, and when the last one ended: work ahead of use waits for a quiet moment. */
let answering = 0;
let lastAnswer = 0;
const QUIET_MS = 300;
async function quiet(): Promise<void> {
  while (answering > 0 || performance.now() - lastAnswer < QUIET_MS)
    await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
}

const db = openLocalDb();
const engine = new ListEngine(db, engineSpecs(entities), { pause });
const post = (message: FromWorker) => self.postMessage(message);
const failure = (error: unknown) => (error instanceof Error ? error.message : String(error));

interface Watch {
  entity: string;
  query: PageQuery;
  seq: number;
  /** The seq last answered. */
  answered: number;
  /** The rows changed since the last answer. */
  changed: boolean;
  running: boolean;
}
const watches = new Map<number, Watch>();

/** Entities whose search text and orders are computed (or being computed) ahead of use. */
const warmed = new Set<string>();

/**
 * After a list's first answer, the orders its headers will ask for are computed in quiet
 * moments (one field at a time, each after no answer for a while): typing right after a list
 * opens is not held up by them.
 */
function warm(entity: string): void {
  if (warmed.has(entity)) return;
  warmed.add(entity);
  engine.warm(entity, quiet).catch((error) => console.error('List warm-up failed:', failure(error)));
}

/** Answers a watch's newest query, again while newer ones or changes came meanwhile. */
async function answer(id: number): Promise<void> {
  const watch = watches.get(id);
  if (!watch || watch.running) return;
  watch.running = true;
  answering += 1;
  while (watches.get(id) === watch && (watch.answered !== watch.seq || watch.changed)) {
    const { seq, entity, query } = watch;
    watch.changed = false;
    try {
      const answer = await engine.page(entity, query);
      if (watch.seq !== seq || watches.get(id) !== watch) continue;
      const { rows, pending } = await pageRows(db, entityByName(entity), answer.keys);
      if (watch.seq === seq && watches.get(id) === watch)
        post({ type: 'page', id, seq, page: { ...answer, rows, pending: [...pending] } });
      warm(entity);
    } catch (error) {
      if (watch.seq === seq) post({ type: 'failed', id, seq, message: failure(error) });
    }
    watch.answered = seq;
  }
  watch.running = false;
  answering -= 1;
  lastAnswer = performance.now();
}

/** The rows shown changed (or may have): every watch of these entities (all: null) answers again. */
function refresh(changed: ReadonlySet<string> | null): void {
  for (const [id, watch] of watches) {
    if (changed && !changed.has(watch.entity)) continue;
    watch.changed = true;
    void answer(id);
  }
}

engine.onChange(refresh);
// A change queued or sent changes the pending marks of the rows shown.
const outbox = `idb://${db.name}/outbox/`;
Dexie.on('storagemutated', (parts: Record<string, unknown>) => {
  if (Object.keys(parts).some((part) => part.startsWith(outbox))) refresh(null);
});

async function reply(seq: number, work: () => Promise<unknown>): Promise<void> {
  try {
    post({ type: 'reply', seq, result: await work() });
  } catch (error) {
    post({ type: 'refused', seq, message: failure(error) });
  }
}

self.onmessage = (event: MessageEvent<ToWorker>) => {
  const m = event.data;
  switch (m.type) {
    case 'watch': {
      const watch = watches.get(m.id);
      if (watch && watch.entity === m.entity) Object.assign(watch, { seq: m.seq, query: m.query });
      else
        watches.set(m.id, {
          entity: m.entity,
          query: m.query,
          seq: m.seq,
          answered: 0,
          changed: false,
          running: false,
        });
      void answer(m.id);
      return;
    }
    case 'unwatch':
      watches.delete(m.id);
      return;
    case 'position':
      void reply(m.seq, () => engine.position(m.entity, m.query, m.key));
      return;
    case 'keys':
      void reply(m.seq, () => engine.keys(m.entity, m.query, m.offset, m.limit));
      return;
    case 'counts':
      void reply(m.seq, async () => Object.fromEntries(await engine.counts(m.entity, m.query, m.field)));
      return;
  }
};
