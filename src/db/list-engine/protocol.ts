/**
 * The messages between the window and the list worker (src/list-worker.ts). A screen's list
 * is a subscription: each new query replaces the previous one under the same id with a higher
 * `seq`, and the worker answers the newest only (an older one still waiting is never run, one
 * running is not posted); it answers again, under the same `seq`, whenever the rows change.
 * One-off requests (a record's position, keys in order, counts) carry their own `seq`.
 */
import type { PageAnswer, PageQuery } from './entity-index';

export type ToWorker =
  | { type: 'watch'; id: number; seq: number; entity: string; query: PageQuery }
  | { type: 'unwatch'; id: number }
  | { type: 'position'; seq: number; entity: string; query: PageQuery; key: string }
  | { type: 'keys'; seq: number; entity: string; query: PageQuery; offset: number; limit: number }
  | { type: 'counts'; seq: number; entity: string; query: PageQuery; field: string };

export type FromWorker =
  | { type: 'page'; id: number; seq: number; answer: PageAnswer }
  | { type: 'failed'; id: number; seq: number; message: string }
  | { type: 'reply'; seq: number; result: unknown }
  | { type: 'refused'; seq: number; message: string };
