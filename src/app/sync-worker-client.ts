/**
 * The window's side of the sync worker (src/sync-worker.ts): a round asked for here runs
 * there, and its report comes back. Started by the first round (never on the sign-in or
 * dashboard path).
 */
import type { SyncReport } from '../sync/sync-now';
import type { FromSyncWorker, SyncAsked } from '../sync/sync-worker-protocol';

let worker: Worker | null = null;
let nextId = 1;
const asked = new Map<number, { resolve: (report: SyncReport) => void; reject: (error: Error) => void }>();

function receive(event: MessageEvent<FromSyncWorker>): void {
  const m = event.data;
  const round = asked.get(m.id);
  asked.delete(m.id);
  if (m.type === 'synced') round?.resolve(m.report);
  else round?.reject(new Error(m.message));
}

/**
 * The worker could not load its script, or failed outside a round: the rounds it owed are
 * reported failed (the scheduler logs them and runs later ones), and the next starts a new
 * worker. A round cut short this way leaves what every interrupted round leaves: changes
 * still queued, and a pull that resumes from its cursor.
 */
function failed(event: ErrorEvent): void {
  worker?.terminate();
  worker = null;
  const error = new Error(`The sync worker failed: ${event.message || 'its script did not load'}`);
  for (const round of asked.values()) round.reject(error);
  asked.clear();
}

/** One sync round (src/sync/sync-now.ts), run in the worker. */
export function syncInWorker(): Promise<SyncReport> {
  if (!worker) {
    worker = new Worker(new URL('../sync-worker.ts', import.meta.url), { type: 'module', name: 'sync' });
    worker.onmessage = receive;
    worker.onerror = failed;
  }
  const id = nextId++;
  const started = worker;
  return new Promise<SyncReport>((resolve, reject) => {
    asked.set(id, { resolve, reject });
    started.postMessage({ type: 'sync', id } satisfies SyncAsked);
  });
}
