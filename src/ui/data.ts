/**
 * The screens' live reads of records (src/app/records.ts): they re-render when the local
 * store changes, whoever changed it (a save, a pull, the service worker).
 */
import { useEffect, useRef, useState } from 'react';
import { firstScreenShown } from '../app/first-screen';
import {
  getRecord,
  type ListQuery,
  type ListResult,
  type Option,
  type PageWatch,
  parentOptions,
  quickPage,
  type Row,
  type ShownPage,
  watchPage,
} from '../app/records';
import { dismissStartSnapshot, rememberStartScreen } from '../app/start-snapshot';
import type { EntityDescription } from '../contract/entity';
import { afterPaint } from './list/after-paint';
import { AskedAhead } from './list/asked-ahead';
import { useLiveQuery } from './live-query';

export type { ListResult, Row };

/** A list's page, and how to ask for the next one at once (see `useList`). */
export interface LiveList {
  result: ListResult | undefined;
  /**
   * Asks for `query` now, from the handler of the click or keystroke that wants it, ahead of
   * the address that will carry it (ui/list/asked-ahead.ts): a page read ahead shows in the same task,
   * and the engine starts while the router commits the address.
   */
  askNow(query: ListQuery): void;
}

/**
 * A list's page, live: the list engine (in its worker) answers which rows and how many, with
 * the page's rows, and answers again when rows change. Until the engine has answered (it loads
 * the entity's index at a list's first open), a page in key order comes straight from the
 * index (`quickPage`), with Next and Last read ahead. The previous page stays on screen until the newest query is answered
 * (undefined only before the first), so typing never blanks the list, and an answer to an
 * older query never shows after a newer one (the worker and the watch drop them). A query is
 * asked when the user asks (`askNow`) or, for one the user did not ask here (the list's
 * opening, back/forward), when the address carries it.
 */
export function useList(entity: EntityDescription, query: ListQuery): LiveList {
  const [page, setPage] = useState<{ entity: string; page: ShownPage }>();
  const watch = useRef<PageWatch | null>(null);
  const engineAnswered = useRef(false);
  const asked = useRef(0);
  const askedAhead = useRef(new AskedAhead());
  /** Pages read ahead from the index until the engine answers (by query text): Next and Last. */
  const ahead = useRef(new Map<string, ShownPage>());
  useEffect(() => {
    const opened = watchPage(entity.name, (answer) => {
      engineAnswered.current = true;
      ahead.current.clear();
      setPage({ entity: entity.name, page: answer });
    });
    watch.current = opened;
    engineAnswered.current = false;
    ahead.current.clear();
    askedAhead.current.clear();
    return () => {
      opened.close();
      watch.current = null;
    };
  }, [entity.name]);
  const readAhead = (q: ListQuery) =>
    void quickPage(entity, q).then(
      (read) => {
        if (read && !engineAnswered.current) ahead.current.set(JSON.stringify(q), read);
      },
      () => undefined, // the jump reads it then
    );
  /** Asks for a query's page: the engine, or before its first answer the index. */
  const ask = (q: ListQuery) => {
    const asking = ++asked.current;
    const toEngine = () => {
      if (asking === asked.current) watch.current?.ask(q);
    };
    if (engineAnswered.current) return toEngine();
    // Before the engine's first answer: the page in key order from the index, and only then the
    // engine (whose first load reads much more of the store) is asked: once that page has
    // painted, so that the worker's start does not share the CPU with it. Next and Last are
    // read ahead meanwhile: a jump there while the worker loads (its reads of whole columns
    // hold the store) shows the page read ahead, and the engine's answer follows.
    const early = ahead.current.get(JSON.stringify(q));
    if (early) {
      setPage({ entity: entity.name, page: early });
      return afterPaint(toEngine);
    }
    let shown = false;
    void quickPage(entity, q)
      .then((quick) => {
        shown = !!quick && asking === asked.current && !engineAnswered.current;
        if (!shown) return;
        setPage({ entity: entity.name, page: quick! });
        const { page: at, total, pageSize } = quick!;
        for (const next of new Set([at + 1, Math.ceil(total / pageSize)]))
          if (next > at) readAhead({ ...q, page: next });
      })
      .catch((error) => console.warn('List page from the index failed', error))
      .finally(() => (shown ? afterPaint(toEngine) : toEngine()));
  };
  const text = JSON.stringify(query);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the query is asked again when its text changes
  useEffect(() => {
    if (askedAhead.current.committed(text)) ask(query);
  }, [entity.name, text]);
  const askNow = (q: ListQuery) => {
    askedAhead.current.asked(JSON.stringify(q));
    ask(q);
  };
  // A list is its start's first screen once its first page has painted (first-screen.ts).
  const hasPage = page !== undefined;
  useEffect(() => {
    if (!hasPage) return;
    // The live page is on screen: the start's picture of it goes (app/start-snapshot.ts).
    dismissStartSnapshot();
    afterPaint(firstScreenShown);
  }, [hasPage]);
  // Each page painted is the start snapshot of its address (app/start-snapshot.ts).
  useEffect(() => {
    if (page) rememberStartScreen();
  }, [page]);
  if (page?.entity !== entity.name) return { result: undefined, askNow };
  const { rows, pending, choices, total, page: number, pageSize } = page.page;
  const result = {
    rows,
    pending: new Set(pending),
    choices: new Set(choices),
    total,
    page: number,
    pageSize,
  };
  return { result, askNow };
}

/** The record, `null` when it is not in the local store, `undefined` while loading. */
export function useRecord(entity: EntityDescription, id: string): Row | null | undefined {
  return useLiveQuery(() => getRecord(entity, id), [entity.name, id]);
}

/** Options of every parent select of a form, recomputed when a chosen parent changes. */
export function useRefOptions(
  entity: EntityDescription,
  fields: readonly string[],
  values: Record<string, unknown>,
  cascade: boolean,
): Record<string, Option[]> {
  const chosen = fields.filter((f) => entity.fields[f]?.kind === 'ref').map((f) => String(values[f] ?? ''));
  return (
    useLiveQuery(() => parentOptions(entity, fields, values, cascade), [entity.name, cascade, ...chosen]) ??
    {}
  );
}
