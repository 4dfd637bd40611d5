/**
 * The import delivery benchmark's page (bench/import-delivery.mjs): signs in, pulls the
 * server's schools, then imports a CSV of students as the import screen does (the app's CSV
 * worker checks it and queues its rows in the outbox) and delivers it with the app's replay
 * (batches, Idempotency-Keys), timing the delivery from the first request to the last reply.
 */
import { schoolEntity } from '../src/contract/entities';
import { geoPaths } from '../src/contract/geography';
import type { FromCsvWorker, ToCsvWorker } from '../src/db/csv/csv-worker-protocol';
import { writeSignedInUser } from '../src/db/meta';
import { openLocalDb } from '../src/db/open';
import { writeReference } from '../src/db/reference-lists';
import { createApi } from '../src/sync/api/api-client';
import { signIn } from '../src/sync/api/sign-in-requests';
import { pull } from '../src/sync/pull/pull';
import { replay } from '../src/sync/replay';
import { API_ROOT } from '../src/sync/sync-settings';

const db = openLocalDb();
const ctx = { db, api: createApi({ root: API_ROOT, timeoutMs: 600_000 }) };
const worker = new Worker(new URL('../src/csv-worker.ts', import.meta.url), { type: 'module', name: 'csv' });
let seq = 1;
const waiting = new Map<number, (m: FromCsvWorker) => void>();
worker.onmessage = (event: MessageEvent<FromCsvWorker>) => {
  if (event.data.type !== 'progress') waiting.get(event.data.seq)?.(event.data);
};
function ask(message: Record<string, unknown>): Promise<unknown> {
  const n = seq++;
  return new Promise((resolve, reject) => {
    waiting.set(n, (m) =>
      m.type === 'reply' ? resolve(m.result) : reject(new Error(m.type === 'failed' ? m.message : '?')),
    );
    worker.postMessage({ ...message, seq: n } as ToCsvWorker);
  });
}

async function prepare(username: string, password: string): Promise<void> {
  if (!(await signIn(ctx.api, username, password)).ok) throw new Error('Sign-in refused');
  await writeSignedInUser(db, username);
  await pull(ctx);
  await writeReference(db, geoPaths.countries(), [{ id: 1, name: 'India', iso2: 'IN' }]);
  await writeReference(db, geoPaths.allStates(), [
    { id: 1, name: 'Maharashtra', iso2: 'MH', country_code: 'IN' },
  ]);
}

/** `rows` students of one school; a second file with another contact number updates them (no password). */
function csvOf(school: string, rows: number, contact: string, tag: string): string {
  const lines = ['Student Name,Email,Password,Contact Number,Country,State,City,School,Class'];
  for (let i = 0; i < rows; i++)
    lines.push(
      `Import ${tag} ${i},import-${tag}-${i}@example.org,Secret-${i}-x,${contact},India,Maharashtra,Pune,${school},`,
    );
  return lines.join('\n');
}

/** Replays until nothing is waiting, as the sync scheduler would, without its pauses between rounds. */
async function deliver(name: string): Promise<{ ms: number; rounds: number; left: number; failed: number }> {
  await window.benchMark?.(`${name} start`);
  const started = performance.now();
  let rounds = 0;
  for (;;) {
    rounds += 1;
    const report = await replay(ctx);
    if (report.paused || report.waiting === 0) break;
    await db.outbox.where('status').equals('pending').modify({ nextAttemptAt: 0 });
  }
  const ms = performance.now() - started;
  await window.benchMark?.(`${name} end`);
  return {
    ms,
    rounds,
    left: await db.outbox.where('status').equals('pending').count(),
    failed: await db.outbox.where('status').equals('failed').count(),
  };
}

/** One file checked, queued and delivered: the delivery's figures and the file's row count. */
async function importFile(text: string, id: string) {
  const check = (await ask({ type: 'check', entity: 'student', text })) as { ready: number };
  await ask({ type: 'start', id, entity: 'student', hash: id, fileName: `${id}.csv` });
  await ask({ type: 'queue', id });
  return { ready: check.ready, ...(await deliver(id)) };
}

async function run(options: { rows: number; username: string; password: string; tag: string }) {
  await prepare(options.username, options.password);
  const school = (await db.rows(schoolEntity).toCollection().first())?.school_name;
  if (typeof school !== 'string') throw new Error('No school pulled from the server');
  const withPasswords = await importFile(csvOf(school, options.rows, '9876543210', options.tag), 'first');
  const withoutPasswords = await importFile(csvOf(school, options.rows, '9876500000', options.tag), 'again');
  return { withPasswords, withoutPasswords };
}

declare global {
  interface Window {
    importBench: { run: typeof run };
    /** Set by bench/import-delivery.mjs: the server's CPU time and a fresh hashing floor, by name. */
    benchMark?: (name: string) => Promise<void>;
  }
}
window.importBench = { run };
document.title = 'import bench ready';
