/**
 * The screens' live reads of records (src/app/records.ts): they re-render when the local
 * store changes, whoever changed it (a save, a pull, the service worker).
 */
import { useLiveQuery } from 'dexie-react-hooks';
import {
  getRecord,
  type ListQuery,
  type ListResult,
  listRecords,
  type Option,
  parentOptions,
  type Row,
} from '../app/records';
import type { EntityDescription } from '../contract/entity';

export type { ListResult, Row };

export function useList(entity: EntityDescription, query: ListQuery): ListResult | undefined {
  return useLiveQuery(
    () => listRecords(entity, query),
    [
      entity.name,
      query.search,
      query.page,
      query.pageSize,
      query.sort?.field,
      query.sort?.dir,
      JSON.stringify(query.where ?? null),
    ],
  );
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
