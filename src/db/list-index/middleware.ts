/**
 * The list index is kept by the storage layer itself: a Dexie DBCore middleware sees every
 * write to an entity table (add, put, delete, delete of a range: mutate, pull, rekey, discard,
 * modify, clear all end there) and, in the SAME transaction, updates the table's chunks of
 * projected rows (chunk.ts). No code path can change rows and forget the index, and a
 * transaction that aborts takes its index changes with it.
 *
 * Every read-write transaction that includes an entity table is widened to the index's two
 * stores (the way dexie-cloud adds its own tables). Within one transaction the head and the
 * chunks it has read stay in memory, and the index work of its writes runs one after another,
 * so writes issued together (a Promise.all of puts) cannot lose each other's changes. Each
 * write reads the chunks its keys fall in (one getMany), and writes back the chunks it changed
 * and the head.
 *
 * A table whose head is missing while it has rows (a store from before the index), or whose
 * head names other fields (a build with another projection), is rebuilt from its rows at its
 * first write, or by `ensureListIndex` (the engine calls it before reading a table).
 */
import type Dexie from 'dexie';
import type {
  DBCore,
  DBCoreKeyRange,
  DBCoreMutateRequest,
  DBCoreMutateResponse,
  DBCoreTable,
  DBCoreTransaction,
  Middleware,
} from 'dexie';
import {
  CHUNK_STORE,
  chunkOf,
  columnKeys,
  fieldsSignature,
  HEAD_STORE,
  OpenChunk,
  type StoredColumn,
  type StoredHead,
} from './chunk';
import { type ListProjection, projectedValue, projectRow } from './projection';

const ANY_RANGE: DBCoreKeyRange = { type: 3, lower: undefined, upper: undefined };
/** Every column record of a table: keys [table, column, chunk]. */
const tableRange = (table: string): DBCoreKeyRange => ({
  type: 2,
  lower: [table],
  upper: [table, []],
  lowerOpen: false,
  upperOpen: false,
});

/** One table's index as one transaction has read and changed it. */
interface OpenIndex {
  head: StoredHead;
  chunks: Map<number, OpenChunk>;
  /** Chunks changed in memory and not yet written. */
  dirty?: Set<number>;
}

interface TransactionState {
  /** The index work of this transaction's writes, one after another. */
  queue: Promise<unknown>;
  tables: Map<string, OpenIndex>;
  /** Writes issued in this transaction so far (each one's number: its place in the queue). */
  issued: number;
  /**
   * A delete of a range was issued: it reads its keys before it deletes, so from then on row
   * writes wait for their turn in the queue (pulls and saves never delete ranges).
   */
  ranged?: boolean;
}

/** The stores of the index, as read and written inside a transaction. */
interface IndexStores {
  chunks: DBCoreTable;
  heads: DBCoreTable;
}

function emptyHead(projection: ListProjection, v = 0): StoredHead {
  return {
    table: projection.table,
    fields: fieldsSignature(projection.key, projection.fields),
    v,
    chunks: {},
    sizes: {},
  };
}

/** The index of these rows, one version past the previous head's. */
function buildIndex(
  projection: ListProjection,
  rows: readonly Record<string, unknown>[],
  previous: StoredHead | undefined,
): OpenIndex {
  const head = emptyHead(projection, (previous?.v ?? 0) + 1);
  const chunks = new Map<number, OpenChunk>();
  for (const row of rows) {
    const key = projectedValue(row[projection.key]);
    const n = chunkOf(key);
    const chunk = chunks.get(n) ?? OpenChunk.empty(projection.fields.length);
    chunks.set(n, chunk);
    chunk.set(key, projectRow(projection, row));
  }
  for (const [n, chunk] of chunks) {
    head.chunks[n] = head.v;
    head.sizes[n] = chunk.size;
  }
  return { head, chunks };
}

/** Chunks built from every row of a table, written over whatever the table's chunks were. */
async function rebuild(
  stores: IndexStores,
  rows: DBCoreTable,
  trans: DBCoreTransaction,
  projection: ListProjection,
  previous: StoredHead | undefined,
): Promise<OpenIndex> {
  const { result } = await rows.query({
    trans,
    values: true,
    query: { index: rows.schema.primaryKey, range: ANY_RANGE },
  });
  const built = buildIndex(projection, result as Record<string, unknown>[], previous);
  await stores.chunks.mutate({ trans, type: 'deleteRange', range: tableRange(projection.table) });
  const columns = [...built.chunks].flatMap(([n, chunk]) =>
    chunk.changedColumns(projection.table, projection.fields, n),
  );
  if (columns.length > 0) await stores.chunks.mutate({ trans, type: 'put', values: columns });
  await stores.heads.mutate({ trans, type: 'put', values: [built.head] });
  return built;
}

/** The table's index as this transaction sees it, rebuilt first when it is missing or stale. */
async function openIndex(
  stores: IndexStores,
  rows: DBCoreTable,
  trans: DBCoreTransaction,
  projection: ListProjection,
  state: TransactionState,
): Promise<OpenIndex> {
  const open = state.tables.get(projection.table);
  if (open) return open;
  const head = (await stores.heads.get({ trans, key: projection.table })) as StoredHead | undefined;
  const current = head?.fields === fieldsSignature(projection.key, projection.fields);
  let index: OpenIndex;
  if (head && current) index = { head, chunks: new Map() };
  else if (
    !head &&
    (await rows.count({ trans, query: { index: rows.schema.primaryKey, range: ANY_RANGE } })) === 0
  )
    index = { head: emptyHead(projection), chunks: new Map() };
  else index = await rebuild(stores, rows, trans, projection, head);
  state.tables.set(projection.table, index);
  return index;
}

/** Reads the chunks these keys fall in that this transaction has not read yet. */
async function loadChunks(
  stores: IndexStores,
  trans: DBCoreTransaction,
  projection: ListProjection,
  index: OpenIndex,
  keys: readonly string[],
): Promise<void> {
  const wanted = [...new Set(keys.map(chunkOf))].filter((n) => !index.chunks.has(n));
  const stored = wanted.filter((n) => index.head.chunks[n] !== undefined);
  const width = projection.fields.length + 1;
  const found = stored.length
    ? ((await stores.chunks.getMany({
        trans,
        keys: stored.flatMap((n) => columnKeys(projection.table, projection.fields, n)),
      })) as (StoredColumn | undefined)[])
    : [];
  stored.forEach((n, i) => {
    index.chunks.set(n, OpenChunk.unpack(found.slice(i * width, (i + 1) * width), index.head.sizes[n] ?? 0));
  });
  for (const n of wanted)
    if (!index.chunks.has(n)) index.chunks.set(n, OpenChunk.empty(projection.fields.length));
}

/** Writes the columns that changed in these chunks (deletes chunks left empty) and the head. */
async function writeChunks(
  stores: IndexStores,
  trans: DBCoreTransaction,
  projection: ListProjection,
  index: OpenIndex,
  changed: readonly number[],
): Promise<void> {
  if (changed.length === 0) return;
  const { head } = index;
  head.v += 1;
  const put: StoredColumn[] = [];
  const gone: [string, string, number][] = [];
  for (const n of changed) {
    const chunk = index.chunks.get(n);
    if (!chunk || chunk.size === 0) {
      if (head.chunks[n] !== undefined) gone.push(...columnKeys(projection.table, projection.fields, n));
      index.chunks.set(n, OpenChunk.empty(projection.fields.length));
      delete head.chunks[n];
      delete head.sizes[n];
    } else {
      head.chunks[n] = head.v;
      head.sizes[n] = chunk.size;
      put.push(...chunk.changedColumns(projection.table, projection.fields, n));
    }
  }
  if (put.length > 0) await stores.chunks.mutate({ trans, type: 'put', values: put });
  if (gone.length > 0) await stores.chunks.mutate({ trans, type: 'delete', keys: gone });
  await stores.heads.mutate({ trans, type: 'put', values: [head] });
}

/** The keys a write changes, read before it for a delete of a range. */
async function keysOf(rows: DBCoreTable, req: DBCoreMutateRequest): Promise<unknown[]> {
  switch (req.type) {
    case 'delete':
      return req.keys;
    case 'deleteRange': {
      const { result } = await rows.query({
        trans: req.trans,
        values: false,
        query: { index: rows.schema.primaryKey, range: req.range },
      });
      return result;
    }
    default:
      return req.keys ?? req.values.map((v) => rows.schema.primaryKey.extractKey?.(v));
  }
}

/**
 * A write's index work, in the transaction's queue. `written` is the row write when it was
 * issued at once (it then runs in the store while earlier index work finishes). The chunks it
 * changes are written by the last write of the queue (`writeDirty`): a page of 2,500 rows in
 * slices writes its few chunks once, not once per slice.
 */
async function indexedMutate(
  stores: IndexStores,
  rows: DBCoreTable,
  projection: ListProjection,
  state: TransactionState,
  req: DBCoreMutateRequest,
  place: number,
  written: Promise<DBCoreMutateResponse> | null,
  projections: ReadonlyMap<string, ListProjection>,
): Promise<DBCoreMutateResponse> {
  const { trans } = req;
  try {
    const keys = (await keysOf(rows, req)).map(projectedValue);
    const index = await openIndex(stores, rows, trans, projection, state);
    await loadChunks(stores, trans, projection, index, keys);
    const response = await (written ?? rows.mutate(req));
    index.dirty ??= new Set();
    keys.forEach((key, i) => {
      if (response.failures[i]) return;
      const n = chunkOf(key);
      const chunk = index.chunks.get(n);
      if (!chunk) return;
      if (req.type === 'put' || req.type === 'add') chunk.set(key, projectRow(projection, req.values[i]));
      else chunk.remove(key);
      index.dirty?.add(n);
    });
    return response;
  } finally {
    // The queue's last write writes every chunk changed in memory.
    if (place === state.issued)
      for (const [table, index] of state.tables) {
        const changed = [...(index.dirty ?? [])];
        index.dirty = undefined;
        await writeChunks(stores, trans, projections.get(table) as ListProjection, index, changed);
      }
  }
}

const states = new WeakMap<DBCoreTransaction, TransactionState>();

function stateOf(trans: DBCoreTransaction): TransactionState {
  const state = states.get(trans) ?? { queue: Promise.resolve(), tables: new Map(), issued: 0 };
  states.set(trans, state);
  return state;
}

export function listIndexMiddleware(projections: readonly ListProjection[]): Middleware<DBCore> {
  const byTable = new Map(projections.map((p) => [p.table, p]));
  return {
    stack: 'dbcore',
    name: 'ListIndex',
    // Next to IndexedDB, under Dexie's own layers: its reads and writes of the index stores need
    // no Dexie zone (they run after awaits), and no live query watches them: readers of the
    // index learn of changes from the entity tables' own change events (list-engine/).
    level: -2,
    create(down) {
      const stores = () => ({ chunks: down.table(CHUNK_STORE), heads: down.table(HEAD_STORE) });
      return {
        ...down,
        transaction(names, mode, options) {
          const widen =
            mode === 'readwrite' &&
            names.some((name) => byTable.has(name)) &&
            !(names.includes(CHUNK_STORE) && names.includes(HEAD_STORE));
          const scope = widen ? [...new Set([...names, CHUNK_STORE, HEAD_STORE])] : names;
          return down.transaction(scope, mode, options);
        },
        table(name) {
          const rows = down.table(name);
          const projection = byTable.get(name);
          if (!projection) return rows;
          return {
            ...rows,
            mutate(req) {
              const state = stateOf(req.trans);
              const place = ++state.issued;
              // The row write goes to the store at once (IndexedDB keeps the order of a
              // transaction's requests) while the index work of the writes before it finishes.
              if (req.type === 'deleteRange') state.ranged = true;
              const written = state.ranged ? null : rows.mutate(req);
              // Awaited in the index work; a failure is reported there.
              written?.catch(() => undefined);
              const work = state.queue.then(() =>
                indexedMutate(stores(), rows, projection, state, req, place, written, byTable),
              );
              state.queue = work.catch(() => undefined);
              return work;
            },
          };
        },
      };
    },
  };
}

/**
 * Makes sure a table's index exists and holds the current projection, rebuilding it from the
 * rows when not (one read-write transaction; in the usual case only the head is read).
 */
export async function ensureListIndex(db: Dexie, projection: ListProjection): Promise<void> {
  const signature = fieldsSignature(projection.key, projection.fields);
  const heads = db.table<StoredHead, string>(HEAD_STORE);
  const head = await heads.get(projection.table);
  if (head?.fields === signature) return;
  const rows = db.table(projection.table);
  if (!head && (await rows.limit(1).count()) === 0) return;
  const chunks = db.table<StoredColumn>(CHUNK_STORE);
  await db.transaction('rw', [rows, chunks, heads], async () => {
    const now = await heads.get(projection.table);
    if (now?.fields === signature) return;
    const built = buildIndex(projection, await rows.toArray(), now);
    await chunks.where('[table+col+n]').between([projection.table], [projection.table, []]).delete();
    await chunks.bulkPut(
      [...built.chunks].flatMap(([n, chunk]) => chunk.changedColumns(projection.table, projection.fields, n)),
    );
    await heads.put(built.head);
  });
}
