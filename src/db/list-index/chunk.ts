/**
 * How the list index stores an entity's projection: in chunks of at most a few hundred rows,
 * each one IndexedDB record holding one text per column (the values joined by NUL), so that
 * reading or writing a chunk is one cheap structured clone whatever its row count. A head
 * record per entity says which chunks exist, at which version, and for which projected fields.
 *
 * A row's chunk is a function of its key: numeric ids (every server's) fall into spans of
 * CHUNK_SPAN consecutive ids, so rows that arrive together (a pulled page of new ids) share a
 * few chunks and a changed row's chunk is found without a lookup; other keys (temporary ids
 * of records made here, file names) are spread over a few hash chunks.
 */

export const CHUNK_STORE = 'listChunks';
export const HEAD_STORE = 'listHeads';

/** Ids per chunk: a chunk of the students list holds at most this many rows (~30 KB). */
export const CHUNK_SPAN = 512;
/** Chunks for keys that are not numeric ids. */
const HASH_CHUNKS = 32;

const SEPARATOR = '\0';

/** The stored chunk: the keys and each projected column, NUL-joined. */
export interface StoredChunk {
  table: string;
  n: number;
  /** The head's version when the chunk was last written. */
  v: number;
  keys: string;
  cols: string[];
}

/** Which chunks of a table exist and at what version; `fields` names the projection they hold. */
export interface StoredHead {
  table: string;
  fields: string;
  /** Grows with every write to the table's chunks. */
  v: number;
  chunks: Record<number, number>;
}

const NUMERIC_ID = /^(0|[1-9]\d{0,14})$/;

/** The chunk a key belongs to: numeric ids by span, other keys by hash (negative numbers). */
export function chunkOf(key: string): number {
  if (NUMERIC_ID.test(key)) return Math.floor(Number(key) / CHUNK_SPAN);
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return -1 - ((hash >>> 0) % HASH_CHUNKS);
}

/** The fields' signature a head records: a projection change rebuilds the table's chunks. */
export const fieldsSignature = (key: string, fields: readonly string[]) => [key, ...fields].join(',');

/** A chunk being changed: its rows' keys and column values as arrays, each key's position. */
export class OpenChunk {
  readonly keys: string[];
  readonly cols: string[][];
  private readonly at = new Map<string, number>();

  constructor(keys: string[], cols: string[][]) {
    this.keys = keys;
    this.cols = cols;
    keys.forEach((k, i) => {
      this.at.set(k, i);
    });
  }

  static empty(width: number): OpenChunk {
    return new OpenChunk(
      [],
      Array.from({ length: width }, () => []),
    );
  }

  static unpack(stored: StoredChunk): OpenChunk {
    if (stored.keys === '') return OpenChunk.empty(stored.cols.length);
    return new OpenChunk(
      stored.keys.split(SEPARATOR),
      stored.cols.map((c) => c.split(SEPARATOR)),
    );
  }

  get size(): number {
    return this.keys.length;
  }

  set(key: string, values: readonly string[]): void {
    let i = this.at.get(key);
    if (i === undefined) {
      i = this.keys.length;
      this.keys.push(key);
      this.at.set(key, i);
    }
    for (let c = 0; c < this.cols.length; c++) this.cols[c][i] = values[c];
  }

  /** Removes a row; the last row takes its place (the order inside a chunk means nothing). */
  remove(key: string): void {
    const i = this.at.get(key);
    if (i === undefined) return;
    const last = this.keys.length - 1;
    if (i !== last) {
      const moved = this.keys[last];
      this.keys[i] = moved;
      this.at.set(moved, i);
      for (const col of this.cols) col[i] = col[last];
    }
    this.keys.pop();
    for (const col of this.cols) col.pop();
    this.at.delete(key);
  }

  pack(table: string, n: number, v: number): StoredChunk {
    return { table, n, v, keys: this.keys.join(SEPARATOR), cols: this.cols.map((c) => c.join(SEPARATOR)) };
  }
}

/** A stored chunk's rows: keys and columns as arrays (for the engine, which does not change it). */
export function unpackChunk(stored: StoredChunk): { keys: string[]; cols: string[][] } {
  if (stored.keys === '') return { keys: [], cols: stored.cols.map(() => []) };
  return { keys: stored.keys.split(SEPARATOR), cols: stored.cols.map((c) => c.split(SEPARATOR)) };
}
