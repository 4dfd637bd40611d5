/**
 * The messages between the window and the list worker (src/list-worker.ts). A screen's list
 * is a subscription: each new query replaces the previous one under the same id with a higher
 * `seq`, and the worker answers the newest only (an older one still waiting is never run, one
 * running is not posted), with the page's rows; it answers again, under the same `seq`,
 * whenever the entity's rows, its parents' or the outbox change.
 * One-off requests (a record's position, keys in order) carry their own `seq`. A counts
 * watch (the dashboard's charts) is answered under its id whenever its figures move.
 */
import type { Row } from '../database';
import type { PageAnswer, PageQuery } from './entity-index';

/** A page as a list shows it: the engine's answer and its rows, with parents' names and pending marks. */
export interface ShownPage extends PageAnswer {
  rows: Row[];
  /** Keys of the page's records with a change waiting in the outbox. */
  pending: string[];
  /** Of those, the keys whose change waits for the administrator's choice (a conflict). */
  choices: string[];
}

/** What a watch counts: each entity's rows by a field, and the sets' holders of each book. */
export interface CountsAsked {
  counts: readonly { entity: string; field: string }[];
  sets: readonly { table: string; relation: string }[];
}

/** A watch's answers, as posted: the counts in the order asked; each book's holders by table. */
export type CountsAnswer =
  | { part: 'counts'; counts: Record<string, number>[] }
  | { part: 'holders'; holders: [string, Record<string, number>][] };

/** One-off requests: a record's position, keys in order. */
export type EngineRequest =
  | { type: 'position'; entity: string; query: PageQuery; key: string }
  | { type: 'keys'; entity: string; query: PageQuery; offset: number; limit: number };

export type ToWorker =
  | { type: 'watch'; id: number; seq: number; entity: string; query: PageQuery }
  | { type: 'unwatch'; id: number }
  /** Figures kept current (count-watches.ts): answered now and after every change that moves them. */
  | { type: 'watchCounts'; id: number; asked: CountsAsked }
  | { type: 'unwatchCounts'; id: number }
  | (EngineRequest & { seq: number });

export type FromWorker =
  | { type: 'page'; id: number; seq: number; page: ShownPage }
  | { type: 'failed'; id: number; seq: number; message: string }
  | { type: 'counted'; id: number; answer: CountsAnswer }
  | { type: 'countsFailed'; id: number; message: string }
  | { type: 'reply'; seq: number; result: unknown }
  | { type: 'refused'; seq: number; message: string };
