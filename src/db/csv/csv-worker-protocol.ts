/** Messages between the window (src/app/csv.ts) and the CSV worker (src/csv-worker.ts). */
import type { FileCheck } from './csv-files';

export type ToCsvWorker = { seq: number } & (
  | {
      type: 'check';
      entity: string;
      /** The file's text, or its bytes (UTF-8) decoded in the worker: no long task in the window. */
      text: string | ArrayBuffer;
    }
  /**
   * Keeps the last checked file in the imports table: queueing starts. `skipMatched`: without
   * the rows that would update a record they name by its e-mail.
   */
  | { type: 'start'; id: string; entity: string; hash: string; fileName: string; skipMatched: boolean }
  | { type: 'queue'; id: string }
  | { type: 'refused'; id: string }
  | { type: 'export'; entity: string; keys: string[] }
);

export type FromCsvWorker =
  | { type: 'reply'; seq: number; result: unknown }
  | { type: 'failed'; seq: number; message: string }
  | { type: 'progress'; seq: number; queued: number; total: number };

export type { FileCheck };
