/**
 * The UI's only door to data: live queries over the local store and the one mutation
 * function. Components never import Dexie tables or the HTTP client.
 */
import { useLiveQuery } from 'dexie-react-hooks';
import { appContext } from '../app/context';
import { changeSaved } from '../app/sync-runner';
import type { EntityDescription } from '../contract/entity';
import type { Row } from '../db/database';
import { readSyncState, type SyncState } from '../db/meta';
import { type Change, type MutationResult, mutate } from '../db/mutate';
import type { OutboxEntry } from '../db/outbox-entry';
import { getRow, type ListQuery, type ListResult, listRows } from '../db/queries';

const { db } = appContext;

export type { ListResult, OutboxEntry, Row, SyncState };

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

export function useOutbox(): OutboxEntry[] | undefined {
  return useLiveQuery(() => db.outbox.orderBy('seq').toArray(), []);
}

export function useSyncState(): SyncState | undefined {
  return useLiveQuery(() => readSyncState(db), []);
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

export async function retryEntry(seq: number): Promise<void> {
  await db.outbox.update(seq, { status: 'pending', nextAttemptAt: 0, lastError: null });
  changeSaved();
}

/** Discards a change on purpose (rule 1's only other exit). A discarded add also removes its record. */
export async function discardEntry(entry: OutboxEntry, entity: EntityDescription): Promise<void> {
  await db.transaction('rw', [db.outbox, db.rows(entity)], async () => {
    await db.outbox.delete(entry.seq!);
    if (entry.op === 'add') await db.rows(entity).delete(entry.key);
  });
}
