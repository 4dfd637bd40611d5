/**
 * The list engine: answers list queries (a page, every matching key in order, counts by a
 * field) for every entity from its list index (list-index/), held in memory (entity-index.ts).
 *
 * An entity is loaded when first asked for, with the parents whose names its lists show: one
 * range read of its chunks, not a read of its rows. It is kept current from the store: the
 * entity tables' change events (Dexie's `storagemutated`, which also carries other windows' and
 * the service worker's writes) mark it stale, and bringing it up to date reads the heads and
 * only the chunks whose version moved, in one read transaction.
 *
 * Runs in the list worker (src/list-worker.ts) for the window; anything else (tests, other
 * code without a window) can run it in place. No DOM, no React.
 */
import Dexie from 'dexie';
import { HEAD_STORE, KEY_COLUMN, type StoredHead } from '../list-index/chunk';
import { ensureListIndex } from '../list-index/middleware';
import { searchColumn, storedSearch } from '../list-index/projection';
import {
  agreeWithHead,
  INDEX_STORES,
  type ReadColumns,
  readChunkColumns,
  readColumn,
  readHead,
} from '../list-index/read';
import { mutatedTables } from '../mutated-tables';
import { type ColumnRead, EntityIndex, type PageAnswer, type PageQuery } from './entity-index';
import { measure } from './list-timing';
import { OneAtATime } from './one-at-a-time';
import type { Pause } from './order';
import type { ChunkRows } from './rows';
import { type EngineSpec, parentsOf } from './spec';

export type { PageAnswer, PageQuery };

export interface EngineOptions {
  /** Lets queued work run during long sorts (the worker passes a yield to its message loop). */
  pause?: Pause;
}

export class ListEngine {
  private readonly indexes = new Map<string, EntityIndex>();
  private readonly loading = new Map<string, Promise<EntityIndex>>();
  /** Heads' versions as last read, per entity. */
  private readonly headVersions = new Map<string, number>();
  private readonly stale = new Set<string>();
  /** Loads and updates, one at a time: each sees the rows whole. */
  private readonly updating = new OneAtATime();
  /**
   * Reads ahead of use, one at a time beside the queue: several at once (a dashboard's counts
   * of three entities) would hold the store from the window's own reads (its figures).
   */
  private readonly readingAhead = new OneAtATime();
  private readonly listeners = new Set<(changed: ReadonlySet<string>) => void>();
  private unwatch: (() => void) | null = null;

  constructor(
    private readonly db: Dexie,
    private readonly specs: ReadonlyMap<string, EngineSpec>,
    private readonly options: EngineOptions = {},
  ) {}

  private spec(name: string): EngineSpec {
    const spec = this.specs.get(name);
    if (!spec) throw new Error(`No list for entity ${name}`);
    return spec;
  }

  /** The entity's index, loaded with its parents' on first use. */
  open(name: string): Promise<EntityIndex> {
    let loading = this.loading.get(name);
    if (!loading) {
      loading = this.load(name);
      this.loading.set(name, loading);
      loading.catch(() => this.loading.delete(name));
    }
    return loading;
  }

  private async load(name: string): Promise<EntityIndex> {
    const spec = this.spec(name);
    // Parents whose titles the search or the default order read are loaded first; the others
    // (most: a student's school) after, so a list's first answer waits only for its own
    // columns. A query that reads a parent's name waits for that parent (EntityIndex.need).
    const readNow = (parent: string) =>
      spec.names.some(
        (n) => n.parent === parent && (spec.search.includes(n.name) || spec.defaultSort.field === n.name),
      );
    const parents = parentsOf(spec).filter((p) => p !== name);
    for (const parent of parents.filter(readNow)) {
      // With its titles: a parent's own first load reads its folded search text, not its names.
      const index = await this.open(parent);
      await index.need([index.spec.title]);
    }
    const index = await this.updating.run(async () => {
      const started = performance.now();
      await ensureListIndex(this.db, spec.projection);
      // The keys, and the columns a search and the list's default order read: the first
      // keystroke should find them here (a list's first paint does not wait for this). The
      // search reads the folded text the index keeps, when it keeps it, not the fields.
      const stored = storedSearch(spec.projection);
      const search = stored ? [searchColumn(stored)] : spec.search;
      // A parent's name is shown by the ref's id: that column too.
      const first = [spec.defaultSort.field, ...search]
        .flatMap((f) => [f, ...spec.names.filter((n) => n.name === f).map((n) => n.field)])
        .filter((f, i, all) => f !== spec.projection.key && all.indexOf(f) === i);
      const { head, columns } = await this.db.transaction('r', INDEX_STORES, async () => {
        const head = await readHead(this.db, spec.projection.table);
        const columns = head
          ? await Promise.all([KEY_COLUMN, ...first].map((f) => readColumn(this.db, head, f)))
          : [];
        return { head, columns };
      });
      const read = measure(`read ${name}`, started);
      const index = new EntityIndex(
        spec,
        (p) => this.indexes.get(p),
        (fields, read, stop) => this.loadColumns(name, fields, read, stop),
        this.options.pause,
        (parent) => (parent === name ? Promise.resolve() : this.open(parent)),
      );
      const [keys = new Map<number, string[]>(), ...values] = columns;
      const chunks = [...keys].map(([n, k]) => ({
        n,
        v: head?.chunks[n] ?? 0,
        keys: k,
        cols: new Map(first.map((f, i) => [f, values[i]?.get(n) ?? []])),
      }));
      index.absorb(index.rows.apply(chunks, []));
      if (spec.search.length && chunks.length) index.prepareSearch();
      measure(`fill ${name}`, read);
      this.headVersions.set(name, head?.v ?? 0);
      this.indexes.set(name, index);
      return index;
    });
    for (const parent of parents) if (!readNow(parent)) void this.open(parent).catch(() => undefined);
    return index;
  }

  /**
   * What changed in an entity's index since it was read (inside a read transaction with the
   * head): the chunks whose version moved, with the columns loaded, and the chunks gone.
   */
  private async changesOf(name: string, head: StoredHead | undefined) {
    const rows = this.indexes.get(name)?.rows;
    if (!rows || (head?.v ?? 0) === this.headVersions.get(name)) return null;
    const inHead = Object.entries(head?.chunks ?? {}).map(([n, v]) => [Number(n), v] as const);
    const moved = inHead.filter(([n, v]) => rows.chunkVersions.get(n) !== v).map(([n]) => n);
    const present = new Set(inHead.map(([n]) => n));
    const gone = [...rows.chunkVersions.keys()].filter((n) => !present.has(n));
    const loaded = [...rows.cols.keys()];
    const read = head ? await readChunkColumns(this.db, head, moved, [KEY_COLUMN, ...loaded]) : new Map();
    const chunks: ChunkRows[] = moved.map((n) => {
      const cols = read.get(n) ?? new Map<string, string[]>();
      return { n, v: head?.chunks[n] ?? 0, keys: cols.get(KEY_COLUMN) ?? [], cols };
    });
    return { name, v: head?.v ?? 0, chunks, gone };
  }

  /**
   * Applies changes read by `changesOf`; tells the listeners which lists may answer otherwise
   * (`everyList`: the outbox moved, so every loaded list's pending marks may differ).
   */
  private applyChanges(
    updates: readonly (Awaited<ReturnType<ListEngine['changesOf']>> | null)[],
    everyList = false,
  ): void {
    const changed = new Set<string>(everyList ? this.indexes.keys() : []);
    for (const update of updates) {
      const index = update && this.indexes.get(update.name);
      if (!update || !index) continue;
      this.headVersions.set(update.name, update.v);
      index.absorb(index.rows.apply(update.chunks, update.gone));
      // Rows may have changed outside the projection too: their lists' pages are read again.
      if (update.chunks.length || update.gone.length) changed.add(update.name);
    }
    // Children show the changed parents' titles.
    for (const [name, index] of this.indexes)
      if (index.spec.names.some((n) => changed.has(n.parent))) {
        index.parentsChanged();
        changed.add(name);
      }
    if (changed.size) for (const listener of this.listeners) listener(changed);
  }

  /**
   * Brings the loaded entities among `names` (and their parents) up to date: reads their heads
   * and the chunks whose version moved, in one read transaction.
   */
  sync(names: readonly string[], everyList = false): Promise<void> {
    return this.updating.run(async () => {
      const wanted = new Set<string>();
      for (const name of names) {
        if (!this.indexes.has(name)) continue;
        wanted.add(name);
        for (const p of parentsOf(this.spec(name))) if (this.indexes.has(p)) wanted.add(p);
      }
      for (const name of wanted) this.stale.delete(name);
      const list = [...wanted];
      if (list.length === 0) return this.applyChanges([], everyList);
      const started = performance.now();
      const tables = list.map((n) => this.spec(n).projection.table);
      const updates = await this.db.transaction('r', INDEX_STORES, async () => {
        const heads = await this.db.table<StoredHead, string>(HEAD_STORE).bulkGet(tables);
        return Promise.all(list.map((name, i) => this.changesOf(name, heads[i])));
      });
      this.applyChanges(updates, everyList);
      measure(`update ${list.join('+')}`, started);
    });
  }

  /**
   * Loads columns of an entity not loaded yet, read with the head they belong to (changes since
   * the entity was last read are applied first). Read ahead of use (`read`: ColumnRead), they
   * are first read outside the queue (`readAhead`), and only made to agree with the head in it.
   */
  private async loadColumns(
    name: string,
    fields: readonly string[],
    read: ColumnRead,
    stop?: AbortSignal,
  ): Promise<void> {
    const early = read === 'queued' ? null : await this.readAhead(name, fields, read === 'pieces', stop);
    return this.updating.run(async () => {
      // Nothing read ahead, and nobody waits for it now.
      if (!early) stop?.throwIfAborted();
      const { index, missing } = this.unloaded(name, fields);
      if (!index || missing.length === 0) return;
      const started = performance.now();
      const table = this.spec(name).projection.table;
      const { update, columns } = await this.db.transaction('r', INDEX_STORES, async () => {
        const head = await readHead(this.db, table);
        const update = await this.changesOf(name, head);
        if (!head) return { update, columns: new Map<string, Map<number, string[]>>() };
        // Only what is still missing: a query may have read a column whole meanwhile.
        const stillMissing = early && {
          head: early.head,
          columns: new Map([...early.columns].filter(([f]) => missing.includes(f))),
        };
        const agreed = stillMissing ? await agreeWithHead(this.db, stillMissing, head) : new Map();
        const unread = missing.filter((f) => !agreed.has(f));
        const whole = await Promise.all(unread.map((f) => readColumn(this.db, head, f)));
        for (const [i, field] of unread.entries()) agreed.set(field, whole[i]);
        return { update, columns: agreed };
      });
      this.applyChanges([update]);
      for (const field of missing) index.rows.loadColumn(field, columns.get(field) ?? new Map());
      measure(`read ${name}.${missing.join('+')}`, started);
    });
  }

  /**
   * Columns read ahead of use, outside the queue: the loads and updates queued meanwhile do not
   * wait for them; `inPieces` (read.ts), a query's reads pass them too. One whose `stop` aborted
   * while it waited its turn is not read: the store is left to the reads someone waits for.
   */
  private async readAhead(
    name: string,
    fields: readonly string[],
    inPieces: boolean,
    stop?: AbortSignal,
  ): Promise<ReadColumns | null> {
    const table = this.spec(name).projection.table;
    return this.readingAhead.run(async () => {
      stop?.throwIfAborted();
      const { index, missing } = this.unloaded(name, fields);
      if (!index || missing.length === 0) return null;
      return this.db.transaction('r', INDEX_STORES, async () => {
        const head = await readHead(this.db, table);
        if (!head) return null;
        const columns = new Map<string, Map<number, string[]>>();
        for (const field of missing) columns.set(field, await readColumn(this.db, head, field, inPieces));
        return { head, columns };
      });
    });
  }

  /** The entity's loaded index, and which of these fields it holds no column of yet. */
  private unloaded(name: string, fields: readonly string[]) {
    const index = this.indexes.get(name);
    return { index, missing: fields.filter((f) => !index?.rows.cols.has(f)) };
  }

  /** The loaded index, up to date: `fresh` reads the heads even when no change was seen. */
  private async current(name: string, fresh: boolean): Promise<EntityIndex> {
    const index = await this.open(name);
    const related = [name, ...parentsOf(index.spec)];
    if (fresh || related.some((n) => this.stale.has(n))) await this.sync(related);
    return index;
  }

  /**
   * Resolves once the loads and updates queued so far are done: work that reads the store
   * apart from the engine (the sets' counts, count-watches.ts) waits for the engine's own
   * update after a change, so the figures that follow it are not held up behind them.
   */
  settled(): Promise<void> {
    return this.updating.idle();
  }

  /**
   * Key -> the name children show, of an entity whose index is loaded with its titles (a
   * list's page joins its parents' names from here); undefined otherwise.
   */
  loadedTitles(name: string): ReadonlyMap<string, string> | undefined {
    return this.indexes.get(name)?.loadedTitles();
  }

  /** A page of a list query. */
  async page(name: string, q: PageQuery, fresh = false): Promise<PageAnswer> {
    return (await this.current(name, fresh)).page(q);
  }

  /** The place (0-based) of a record among a query's rows, -1 when the query does not show it. */
  async position(name: string, q: PageQuery, key: string): Promise<number> {
    return (await this.current(name, true)).position(q, key);
  }

  /** Every matching key in order, a slice at a time (for work on all of a query's rows). */
  async keys(name: string, q: PageQuery, offset: number, limit: number, fresh = false) {
    return (await this.current(name, fresh)).keys(q, offset, limit);
  }

  /** How many of a query's rows have each value of a projected field. */
  async counts(
    name: string,
    q: PageQuery,
    field: string,
    fresh = false,
    stop?: AbortSignal,
  ): Promise<Map<string, number>> {
    return (await this.current(name, fresh)).counts(q, field, stop);
  }

  /**
   * Computes an entity's orders ahead of the clicks that will want them (its search text is
   * built when it loads): its title's order at once, the one a header click most often wants
   * (computed at the click, right after typing, it held that click 130-230 ms), then the
   * others, each after `before` resolves (the worker waits for a quiet moment). All pause with
   * `pause` (the worker's gives way to any other task: a query's reads are not held behind
   * slices of this work).
   */
  async warm(name: string, before: () => Promise<void> = async () => {}, pause?: Pause): Promise<void> {
    const index = await this.open(name);
    const fields = Object.keys(index.spec.orders);
    const title = index.spec.title;
    for (const field of [...fields.filter((f) => f === title), ...fields.filter((f) => f !== title)]) {
      if (field !== title) await before();
      await index.need([field], 'pieces');
      await index.order(field, pause);
    }
  }

  /**
   * Follows the store's changes: entities whose tables change are brought up to date, and the
   * listener hears which changed whenever changes are applied (their lists' answers may
   * differ). Returns how to stop.
   */
  onChange(listener: (changed: ReadonlySet<string>) => void): () => void {
    this.listeners.add(listener);
    this.watch();
    return () => this.listeners.delete(listener);
  }

  private watch(): void {
    if (this.unwatch) return;
    const byTable = new Map([...this.specs.values()].map((s) => [s.projection.table, s.name]));
    let scheduled = false;
    /** A change was queued or sent: the pending marks of every list may differ. */
    let outboxMoved = false;
    const onMutated = (parts: Record<string, unknown>) => {
      for (const table of mutatedTables(this.db, parts)) {
        if (table === 'outbox' && this.indexes.size > 0) outboxMoved = true;
        const name = byTable.get(table);
        if (name && this.indexes.has(name)) this.stale.add(name);
      }
      if (scheduled || (this.stale.size === 0 && !outboxMoved)) return;
      scheduled = true;
      // One answer for a save's row and outbox entry (one transaction, one event) or several
      // writes in a row: after this turn, with what moved.
      setTimeout(() => {
        scheduled = false;
        const everyList = outboxMoved;
        outboxMoved = false;
        void this.sync([...this.stale], everyList);
      }, 0);
    };
    Dexie.on('storagemutated', onMutated);
    this.unwatch = () => Dexie.on('storagemutated').unsubscribe(onMutated);
  }

  close(): void {
    this.unwatch?.();
    this.unwatch = null;
    this.listeners.clear();
  }
}
