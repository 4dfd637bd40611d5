/**
 * How the list index stores an entity's projection: in chunks of at most a few hundred rows,
 * and each chunk column by column: one IndexedDB record per column of a chunk holds that
 * column's values joined by NUL (the keys are a column too). Reading or writing one is a cheap
 * structured clone whatever the row count, and a reader loads only the columns it needs: a
 * list's first page in key order reads keys only, a search adds the searched column, a header
 * click the column it sorts by. Records are keyed [table, column, chunk], so one range read
 * gets a whole column.
 *
 * A head record per entity says which chunks exist, at which version (any column of the chunk
 * changed) and with how many rows, and which projection the columns hold.
 *
 * A row's chunk is a function of its key: numeric ids (every server's) fall into spans of
 * CHUNK_SPAN consecutive ids, so rows that arrive together (a pulled page of new ids) share a
 * few chunks and a changed row's chunk is found without a lookup. Temporary ids of records made
 * here carry a sequence (ids.ts `newTempId`) and fall into spans of CHUNK_SPAN of it the same
 * way, under negative numbers: an import's slice of 250 new rows touches one or two chunks.
 * Other keys (temporary ids of the former shape, file names) are spread over a few hash chunks.
 */
import { tempSequence } from '../ids';

export const CHUNK_STORE = 'listChunks';
export const HEAD_STORE = 'listHeads';
/** The keys' column. */
export const KEY_COLUMN = ':key';

/** Ids per chunk: a chunk of the students list holds at most this many rows. */
export const CHUNK_SPAN = 512;
/** Chunks for keys that are not numeric ids. */
const HASH_CHUNKS = 32;

const SEPARATOR = '\0';

/** One column of one chunk: its values (or keys), NUL-joined, in the chunk's row order. */
export interface StoredColumn {
  table: string;
  col: string;
  n: number;
  text: string;
}

/**
 * Which chunks of a table exist, at what version and with how many rows; `fields` names the
 * projection they hold. The sizes let a page in key order be found without reading the rows
 * before it (list-engine/key-page.ts).
 */
export interface StoredHead {
  table: string;
  fields: string;
  /** Grows with every write to the table's chunks. */
  v: number;
  chunks: Record<number, number>;
  sizes: Record<number, number>;
}

const NUMERIC_ID = /^(0|[1-9]\d{0,14})$/;

/**
 * The chunk a key belongs to: numeric ids by span (0 and up); temporary ids by span of their
 * sequence (below -HASH_CHUNKS); other keys by hash (-1 to -HASH_CHUNKS). Only the numeric ids'
 * chunks are in key order (list-engine/key-page.ts reads every negative chunk and sorts).
 */
export function chunkOf(key: string): number {
  if (NUMERIC_ID.test(key)) return Math.floor(Number(key) / CHUNK_SPAN);
  const sequence = tempSequence(key);
  if (sequence !== null) return -1 - HASH_CHUNKS - Math.floor(sequence / CHUNK_SPAN);
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return -1 - ((hash >>> 0) % HASH_CHUNKS);
}

/**
 * The layout of heads and chunks: a head of another layout is rebuilt like another projection.
 * 3: an id chunk keeps its rows in id order (`OpenChunk.changedColumns`).
 * 4: temporary ids with a sequence have chunks by span of it (`chunkOf`); a build before it
 * would look for them in the hash chunks, so it rebuilds a head of this layout.
 */
const LAYOUT = 4;

/**
 * The signature a head records (layout, key and fields): a head of another projection or
 * layout (another build) has its table's chunks rebuilt.
 */
export const fieldsSignature = (key: string, fields: readonly string[]) =>
  `${LAYOUT}:${[key, ...fields].join(',')}`;

/** A column's values from its stored text. */
export const unpackColumn = (text: string, size: number): string[] =>
  size === 0 ? [] : text.split(SEPARATOR);

/** The records' keys of one chunk's columns: the keys' column, then the fields in order. */
export const columnKeys = (
  table: string,
  fields: readonly string[],
  n: number,
): [string, string, number][] => [
  [table, KEY_COLUMN, n],
  ...fields.map((f): [string, string, number] => [table, f, n]),
];

/** A chunk being changed: its rows' keys and column values as arrays, each key's position. */
export class OpenChunk {
  readonly keys: string[];
  readonly cols: string[][];
  private readonly at = new Map<string, number>();
  /** The stored texts (keys first), to write back only the columns that changed. */
  private readonly stored: (string | null)[];

  constructor(keys: string[], cols: string[][], stored: (string | null)[] = []) {
    this.keys = keys;
    this.cols = cols;
    this.stored = stored;
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

  /** From its stored columns (keys first), as read; a missing record reads as empty. */
  static unpack(records: readonly (StoredColumn | undefined)[], size: number): OpenChunk {
    const texts = records.map((r) => r?.text ?? null);
    const [keys, ...cols] = texts.map((t) => (t === null ? [] : unpackColumn(t, size)));
    return new OpenChunk(keys, cols, texts);
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

  /**
   * Puts the rows in id order, when they are ids: a chunk spans consecutive ids, so chunks read
   * in order give every id in order and a reader's key order is a check, not a sort
   * (list-engine/order.ts `keyOrder`). Rows mostly come in order already (a pull's new ids
   * follow each other); a delete or a late id puts them out of order, and they are sorted here.
   */
  private sortByKey(): void {
    const { keys } = this;
    const order = keys.map((_, i) => i).sort((a, b) => Number(keys[a]) - Number(keys[b]));
    if (order.every((from, to) => from === to)) return;
    for (const values of [keys, ...this.cols]) {
      const copy = values.slice();
      order.forEach((from, to) => {
        values[to] = copy[from];
      });
    }
    keys.forEach((k, i) => {
      this.at.set(k, i);
    });
  }

  /** The column records whose text differs from what was stored (all of them for a new chunk). */
  changedColumns(table: string, fields: readonly string[], n: number): StoredColumn[] {
    if (n >= 0) this.sortByKey();
    const texts = [this.keys, ...this.cols].map((values) => values.join(SEPARATOR));
    const out: StoredColumn[] = [];
    texts.forEach((text, c) => {
      if (text === this.stored[c]) return;
      this.stored[c] = text;
      out.push({ table, col: c === 0 ? KEY_COLUMN : fields[c - 1], n, text });
    });
    return out;
  }
}
