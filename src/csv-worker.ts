/// <reference lib="webworker" />
/**
 * The CSV worker: parses and checks an import file (papaparse, in chunks), keeps
 * it on the device, queues its rows a slice at a time, and writes exports, so the window's main
 * thread never holds a long task for them. It opens the same local store as the window; what
 * it writes reaches the screens through Dexie's change events like any other write.
 */
import { entityByName } from './contract/entities';
import { checkFile, exportParts, refusedRowsCsv, type SkippedRow, skippedRows } from './db/csv/csv-files';
import type { FromCsvWorker, ToCsvWorker } from './db/csv/csv-worker-protocol';
import { deliveryOf, importFile, importsOf, queueSlice, type ReadyRow, startImport } from './db/csv/imports';
import { errorMessage } from './db/error-message';
import { openLocalDb } from './db/open';
import { measurer } from './db/user-timing';

const measureExport = measurer('export');

declare const self: DedicatedWorkerGlobalScope;

/** Rows per transaction: large enough to queue 10,000 rows in seconds, small enough to report often. */
const SLICE = 250;

const db = openLocalDb();
const post = (message: FromCsvWorker) => self.postMessage(message);
let checked: { entity: string; text: string; rows: ReadyRow[]; skipped: SkippedRow[] } | null = null;
/** The import being queued, so that a second ask does not queue it twice at once. */
const queueing = new Set<string>();

/**
 * An export as a Blob made here: the window gets a handle to the file, never 11 MB to copy or
 * decode (a copied string cost it a 120 ms task).
 */
async function exportFile(entity: string, keys: string[]): Promise<Blob> {
  const parts = await exportParts(db, entityByName(entity), keys);
  const started = performance.now();
  const file = new Blob(parts, { type: 'text/csv;charset=utf-8' });
  measureExport('blob', started);
  return file;
}

async function handle(m: ToCsvWorker): Promise<unknown> {
  switch (m.type) {
    case 'check': {
      const text = typeof m.text === 'string' ? m.text : new TextDecoder('utf-8').decode(m.text);
      const { check, rows } = await checkFile(db, entityByName(m.entity), text);
      checked = { entity: m.entity, text, rows, skipped: skippedRows(check.problems) };
      return check;
    }
    case 'start': {
      if (!checked || checked.entity !== m.entity) throw new Error('No checked file to import');
      await startImport(db, {
        id: m.id,
        entity: m.entity,
        hash: m.hash,
        fileName: m.fileName,
        text: checked.text,
        // Rows that name an existing record by its e-mail are left out when asked to skip them.
        rows: m.skipMatched ? checked.rows.filter((row) => !row.matched) : checked.rows,
        skipped: checked.skipped,
        startedAt: Date.now(),
      });
      return m.id;
    }
    case 'queue': {
      if (queueing.has(m.id)) return 'busy';
      queueing.add(m.id);
      try {
        // Read once: the file does not change while its rows are queued.
        const file = await importFile(db, m.id);
        for (;;) {
          const result = await queueSlice(db, m.id, SLICE, file);
          if ('stopped' in result) return result.stopped;
          post({ type: 'progress', seq: m.seq, ...result });
          if (result.queued >= result.total) return 'queued';
        }
      } finally {
        queueing.delete(m.id);
      }
    }
    case 'refused': {
      const [record, file] = await Promise.all([importsOf(db).get(m.id), importFile(db, m.id)]);
      if (!record || !file) return '';
      return refusedRowsCsv(file, (await deliveryOf(db, record)).refused);
    }
    case 'export':
      return exportFile(m.entity, m.keys);
  }
}

self.onmessage = (event: MessageEvent<ToCsvWorker>) => {
  const m = event.data;
  handle(m).then(
    (result) => self.postMessage({ type: 'reply', seq: m.seq, result } satisfies FromCsvWorker),
    (error) => post({ type: 'failed', seq: m.seq, message: errorMessage(error) }),
  );
};
