/**
 * Upload progress for the screens: the progress events of large files on their way (from this
 * window's replays and, relayed, the service worker's: src/sync/uploads/progress-channel.ts), and which
 * outbox entry a saved change became, to pick its events out.
 */
import { awaitDelivery, type DeliveryOutcome } from '../records';
import { db } from '../window-context';
import { type UploadProgress, watchUploadProgress } from './upload-progress';

export type { UploadProgress };

/** The outbox seq of each entry id still waiting (entries carry their seq in progress events). */
export async function entrySeqs(entryIds: readonly string[]): Promise<Map<string, number>> {
  const entries = await db.outbox
    .where('id')
    .anyOf([...entryIds])
    .toArray();
  return new Map(entries.map((e) => [e.id, e.seq]));
}

export interface UploadsAwaited {
  outcomes: DeliveryOutcome[];
  /** The latest progress heard of each file, when the form stopped waiting. */
  progress: UploadProgress[];
}

/**
 * Waits for the server's verdict on changes that carry files: as an ordinary save does (a
 * few seconds), and for a large file as long as its upload makes progress (an event of
 * theirs within `quietMs`); until they are confirmed or refused, the device goes offline or
 * an attempt fails to reach the server (then they wait in the outbox).
 */
export async function awaitUploads(
  entryIds: readonly string[],
  large: boolean,
  quietMs = 30_000,
  firstMs = 4000,
): Promise<UploadsAwaited> {
  const seqs = new Set((await entrySeqs(entryIds)).values());
  const started = Date.now();
  let heard: number | null = null;
  const latest = new Map<string, UploadProgress>();
  const stop = watchUploadProgress((p) => {
    if (!seqs.has(p.seq)) return;
    heard = Date.now();
    latest.set(`${p.seq}:${p.field}`, p);
  });
  const waited = () =>
    heard !== null ? Date.now() - heard > quietMs : Date.now() - started > (large ? quietMs : firstMs);
  try {
    const outcomes: DeliveryOutcome[] = [];
    for (const id of entryIds) outcomes.push(await awaitDelivery(id, 500, () => !waited()));
    return { outcomes, progress: [...latest.values()] };
  } finally {
    stop();
  }
}

/** The record (entity and key) each outbox seq carries, for a list to mark its rows. */
export async function recordsOfEntries(seqs: readonly number[]): Promise<Map<number, string>> {
  const entries = await db.outbox.bulkGet([...seqs]);
  return new Map(entries.flatMap((e) => (e ? [[e.seq, `${e.entity}:${e.key}`] as const] : [])));
}
