/**
 * The window's side of the list worker (src/list-worker.ts): started when a list first asks
 * (never on the sign-in or dashboard path), then shared by every list. A list is a watch: its
 * newest query is sent with a higher sequence number, and only the answer to the newest is
 * handed on, first when computed, again whenever the rows change. One-off requests (a record's
 * position) are promises. Pages come with their rows.
 */
import type {
  CountsAnswer,
  CountsAsked,
  EngineRequest,
  FromWorker,
  ShownPage,
  ToWorker,
} from '../db/list-engine/protocol';
import type { PageQuery } from '../db/queries';

export type { ShownPage };

let worker: Worker | null = null;
let nextId = 1;
let nextSeq = 1;
const watches = new Map<number, { seq: number; onAnswer: (page: ShownPage) => void }>();
const countWatches = new Map<number, { onAnswer: (a: CountsAnswer) => void; onError: (e: Error) => void }>();
const requests = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();

function receive(event: MessageEvent<FromWorker>): void {
  const m = event.data;
  if (m.type === 'page' || m.type === 'failed') {
    const watch = watches.get(m.id);
    if (!watch || watch.seq !== m.seq) return;
    if (m.type === 'page') watch.onAnswer(m.page);
    else console.error('List query failed:', m.message);
    return;
  }
  if (m.type === 'counted' || m.type === 'countsFailed') {
    const watch = countWatches.get(m.id);
    if (m.type === 'counted') watch?.onAnswer(m.answer);
    else watch?.onError(new Error(m.message));
    return;
  }
  const request = requests.get(m.seq);
  requests.delete(m.seq);
  if (m.type === 'reply') request?.resolve(m.result);
  else request?.reject(new Error(m.message));
}

function send(message: ToWorker): void {
  if (!worker) {
    worker = new Worker(new URL('../list-worker.ts', import.meta.url), { type: 'module', name: 'lists' });
    worker.onmessage = receive;
  }
  worker.postMessage(message);
}

export interface PageWatch {
  /** Asks for this query's page; answers to earlier queries are no longer handed on. */
  ask(query: PageQuery): void;
  close(): void;
}

/** Watches one list's page: `onAnswer` hears the newest query's page, and again after changes. */
export function watchPage(entity: string, onAnswer: (page: ShownPage) => void): PageWatch {
  const id = nextId++;
  const watch = { seq: 0, onAnswer };
  watches.set(id, watch);
  return {
    ask(query) {
      watch.seq = nextSeq++;
      send({ type: 'watch', id, seq: watch.seq, entity, query });
    },
    close() {
      watches.delete(id);
      if (worker) send({ type: 'unwatch', id });
    },
  };
}

function request<T>(message: EngineRequest): Promise<T> {
  const seq = nextSeq++;
  return new Promise<T>((resolve, reject) => {
    requests.set(seq, { resolve: resolve as (value: unknown) => void, reject });
    send({ ...message, seq });
  });
}

/** The place (0-based) of a record among a query's rows; -1 when the query does not show it. */
export const positionOf = (entity: string, query: PageQuery, key: string): Promise<number> =>
  request<number>({ type: 'position', entity, query, key });

/**
 * Every key a query matches, in its order, `limit` at a time from `offset` (work on all of a
 * list's rows: export, 'select all N matching'), with the total.
 */
export const keysOf = (entity: string, query: PageQuery, offset: number, limit: number) =>
  request<{ keys: string[]; total: number }>({ type: 'keys', entity, query, offset, limit });

/**
 * Counts kept current by the worker (the dashboard's charts): `onAnswer` hears each part
 * (the counts, the books' holders) at once and again whenever it moves. Returns the unwatch.
 */
export function watchCounts(
  asked: CountsAsked,
  onAnswer: (answer: CountsAnswer) => void,
  onError: (error: Error) => void,
): () => void {
  const id = nextId++;
  countWatches.set(id, { onAnswer, onError });
  send({ type: 'watchCounts', id, asked });
  return () => {
    countWatches.delete(id);
    send({ type: 'unwatchCounts', id });
  };
}
