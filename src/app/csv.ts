/**
 * Import and export for the screens: the CSV worker (src/csv-worker.ts, started on
 * first use) does the parsing, checking, queueing and writing; this module talks to it, hashes
 * files, reads an import's state from the local store and gets a list's keys from the list
 * worker. Loaded with the import screen and the list's Export button, never on first load.
 */
import type { EntityDescription } from '../contract/entity';
import type { FileCheck, FromCsvWorker, ToCsvWorker } from '../db/csv/csv-worker-protocol';
import {
  type DeliveryCount,
  deliveryOf,
  type ImportRecord,
  importedBefore,
  importsOf,
  unfinishedImport,
} from '../db/csv/imports';
import type { PageQuery } from '../db/queries';
import { keysOf } from './list-worker-client';
import { changeSaved } from './sync-runner';
import { db } from './window-context';

export type { DeliveryCount, FileCheck, ImportRecord };

type Distribute<T> = T extends unknown ? Omit<T, 'seq'> : never;

let worker: Worker | null = null;
let nextSeq = 1;
const calls = new Map<
  number,
  {
    resolve: (v: unknown) => void;
    reject: (e: Error) => void;
    progress?: (queued: number, total: number) => void;
  }
>();

function receive(event: MessageEvent<FromCsvWorker>): void {
  const m = event.data;
  const call = calls.get(m.seq);
  if (!call) return;
  if (m.type === 'progress') {
    call.progress?.(m.queued, m.total);
    return;
  }
  calls.delete(m.seq);
  if (m.type === 'reply') call.resolve(m.result);
  else call.reject(new Error(m.message));
}

function ask<T>(
  message: Distribute<ToCsvWorker>,
  progress?: (queued: number, total: number) => void,
): Promise<T> {
  if (!worker) {
    worker = new Worker(new URL('../csv-worker.ts', import.meta.url), { type: 'module', name: 'csv' });
    worker.onmessage = receive;
  }
  const seq = nextSeq++;
  return new Promise<T>((resolve, reject) => {
    calls.set(seq, { resolve: resolve as (v: unknown) => void, reject, progress });
    worker!.postMessage({ ...message, seq } as ToCsvWorker);
  });
}

/** SHA-256 of the file's bytes, hex: the same file imported again is recognised. */
async function hashOf(bytes: ArrayBuffer): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}

export interface CheckedFile {
  check: FileCheck;
  hash: string;
  fileName: string;
  /** When this file was imported before, or null. */
  importedAt: number | null;
}

/** Reads and checks a chosen file: the preview. */
export async function checkImportFile(entity: EntityDescription, file: File): Promise<CheckedFile> {
  const bytes = await file.arrayBuffer();
  // The worker decodes the bytes: the text of 100,000 rows is a long task on a slow tablet.
  const [check, hash] = await Promise.all([
    ask<FileCheck>({ type: 'check', entity: entity.name, text: bytes }),
    hashOf(bytes),
  ]);
  return { check, hash, fileName: file.name, importedAt: await importedBefore(db, hash) };
}

/**
 * Keeps the checked file on the device; its rows are then queued by `queueImport`. With
 * `skipMatched`, rows that would update a record they name by its e-mail are left out.
 */
export const startImport = (
  entity: EntityDescription,
  file: CheckedFile,
  skipMatched = false,
): Promise<string> =>
  ask<string>({
    type: 'start',
    id: crypto.randomUUID(),
    entity: entity.name,
    hash: file.hash,
    fileName: file.fileName,
    skipMatched,
  });

/**
 * Queues an import's rows from its position (a slice a transaction, in the worker); each slice
 * starts sending. Answers 'queued', or why it stopped ('signed-out': resumed at the next visit).
 */
export function queueImport(
  id: string,
  onProgress: (queued: number, total: number) => void,
): Promise<string> {
  return ask<string>({ type: 'queue', id }, (queued, total) => {
    changeSaved();
    onProgress(queued, total);
  });
}

export const unfinishedImportOf = (entity: EntityDescription) => unfinishedImport(db, entity.name);
export const importRecord = (id: string) => importsOf(db).get(id);
export async function importDelivery(id: string): Promise<DeliveryCount | null> {
  const record = await importsOf(db).get(id);
  return record ? deliveryOf(db, record) : null;
}

/** The refused rows of an import as CSV, with the server's words in an `error` column. */
export const refusedRowsText = (id: string) => ask<string>({ type: 'refused', id });

const KEYS_AT_ONCE = 20_000;

/**
 * A list's rows under its filter and sort, all pages, as a CSV file the import reads back (a
 * Blob made in the CSV worker: the window never holds the text).
 */
export async function exportFile(entity: EntityDescription, query: PageQuery): Promise<Blob> {
  const keys: string[] = [];
  for (let offset = 0; ; offset += KEYS_AT_ONCE) {
    const slice = await keysOf(entity.name, query, offset, KEYS_AT_ONCE);
    keys.push(...slice.keys);
    if (slice.keys.length < KEYS_AT_ONCE || keys.length >= slice.total) break;
  }
  return ask<Blob>({ type: 'export', entity: entity.name, keys });
}
