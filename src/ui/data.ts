/**
 * The screens' live reads of records (src/app/records.ts): they re-render when the local
 * store changes, whoever changed it (a save, a pull, the service worker).
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { useEffect, useRef, useState } from 'react';
import {
  getRecord,
  type ListQuery,
  type ListResult,
  type Option,
  type PageAnswer,
  type PageWatch,
  pageRecords,
  parentOptions,
  quickPage,
  type Row,
  watchPage,
} from '../app/records';
import type { EntityDescription } from '../contract/entity';

export type { ListResult, Row };

/**
 * A list's page, live: the list engine (in its worker) answers which keys and how many, and
 * again when rows change; the page's rows are then read by key, and re-read when they change.
 * Until the engine has answered (it loads the entity's index at a list's first open), a page
 * in key order comes straight from the index (`quickPage`). Until the newest query's page is
 * read, the previous page stays on screen (undefined only before the first), so typing never
 * blanks the list and an answer to an older query never shows after a newer one.
 */
export function useList(entity: EntityDescription, query: ListQuery): ListResult | undefined {
  const [answer, setAnswer] = useState<PageAnswer>();
  const watch = useRef<PageWatch | null>(null);
  const engineAnswered = useRef(false);
  const asked = useRef(0);
  useEffect(() => {
    const opened = watchPage(entity.name, (a) => {
      engineAnswered.current = true;
      setAnswer(a);
    });
    watch.current = opened;
    engineAnswered.current = false;
    setAnswer(undefined);
    return () => {
      opened.close();
      watch.current = null;
    };
  }, [entity.name]);
  const text = JSON.stringify(query);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the query is asked again when its text changes
  useEffect(() => {
    watch.current?.ask(query);
    const asking = ++asked.current;
    if (engineAnswered.current) return;
    void quickPage(entity, query).then((quick) => {
      if (quick && asking === asked.current && !engineAnswered.current) setAnswer(quick);
    });
  }, [entity.name, text]);
  const page = useLiveQuery(
    async () => (answer ? { answer, ...(await pageRecords(entity, answer.keys)) } : undefined),
    [answer],
  );
  const latest: ListResult | undefined =
    page && page.answer === answer
      ? {
          rows: page.rows,
          pending: page.pending,
          total: answer.total,
          page: answer.page,
          pageSize: answer.pageSize,
        }
      : undefined;
  const shown = useRef<{ entity: string; result: ListResult } | null>(null);
  if (latest) shown.current = { entity: entity.name, result: latest };
  return latest ?? (shown.current?.entity === entity.name ? shown.current.result : undefined);
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
