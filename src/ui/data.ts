/**
 * The screens' door to records: live queries over the local store and the one mutation
 * function. Components never import Dexie tables or the HTTP client. (The top bar's queue
 * state is in sync-state.ts, so the first screen does not load this.)
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { appContext } from '../app/context';
import { changeSaved } from '../app/sync-runner';
import type { EntityDescription } from '../contract/entity';
import type { Row } from '../db/database';
import { type Change, type MutationResult, mutate } from '../db/mutate';
import { type Option, refOptions } from '../db/options';
import type { OutboxEntry } from '../db/outbox-entry';
import { getRow, type ListQuery, type ListResult, listRows } from '../db/queries';

const { db } = appContext;

export type { ListResult, OutboxEntry, Row };

export function useList(entity: EntityDescription, query: ListQuery): ListResult | undefined {
  return useLiveQuery(
    () => listRows(db, entity, query),
    [entity.name, query.search, query.page, query.pageSize, query.sort?.field, query.sort?.dir],
  );
}

/** The record, `null` when it is not in the local store, `undefined` while loading. */
export function useRecord(entity: EntityDescription, id: string): Row | null | undefined {
  return useLiveQuery(async () => (await getRow(db, entity, id)) ?? null, [entity.name, id]);
}

/** Options of every parent select of a form, recomputed when a chosen parent changes. */
export function useRefOptions(
  entity: EntityDescription,
  fields: readonly string[],
  values: Record<string, unknown>,
  cascade: boolean,
): Record<string, Option[]> {
  const refs = fields.filter((f) => entity.fields[f]?.kind === 'ref');
  const chosen = refs.map((f) => String(values[f] ?? ''));
  return (
    useLiveQuery(
      async () =>
        Object.fromEntries(
          await Promise.all(
            refs.map(async (f) => [f, await refOptions(db, entity, f, values, cascade)] as const),
          ),
        ),
      [entity.name, cascade, ...chosen],
    ) ?? {}
  );
}

export type DeliveryOutcome =
  | { kind: 'confirmed' }
  | { kind: 'failed'; message: string | null }
  | { kind: 'queued' };

/** Saves a change locally (it shows at once) and starts sending it. */
export async function saveChange(change: Change): Promise<MutationResult> {
  const result = await mutate(db, change);
  changeSaved();
  return result;
}

/**
 * Waits a little for the server to confirm a change, so an online administrator gets the
 * server's verdict; past the wait the change stays queued and the notice says so.
 */
export async function awaitDelivery(entryId: string | null, timeoutMs = 4000): Promise<DeliveryOutcome> {
  if (entryId === null) return { kind: 'confirmed' };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const entry = await db.outbox.where('id').equals(entryId).first();
    if (!entry) return { kind: 'confirmed' };
    if (entry.status === 'failed') return { kind: 'failed', message: entry.lastError };
    if (!navigator.onLine) return { kind: 'queued' };
    await new Promise((r) => setTimeout(r, 100));
  }
  return { kind: 'queued' };
}
