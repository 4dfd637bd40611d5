/**
 * One entity's list answers, from its projected rows in memory (rows.ts): filters and search
 * narrow the rows, an order ranks them, and a page is cut from the order. What they need is
 * built when first needed and kept:
 *
 * - the search text of each row (its search fields, folded: db/list-index/fold-text.ts): the column the
 *   list index keeps folded when rows are written (list-index/projection.ts `searchColumn`), or,
 *   for an entity whose search reads a parent's name or a choice's label, built here and
 *   patched row by row as rows change; a search scans it (100,000 short strings in a few
 *   milliseconds), and a search that extends the previous one scans only the previous matches;
 * - the key order (numeric ids; temporary ids after them), the tie-break of every order;
 * - per sortable field, its values' ranking (order.ts) and the rows in that order, rebuilt
 *   after a change from the kept ranking (a native sort of packed numbers).
 *
 * Parents' names come from the parent's own projection: a row's `school_name` is its school's
 * current title (the row's own copy when the school is not on this device).
 */
import { nameText } from '../../contract/parent-names';
import { foldText } from '../list-index/fold-text';
import { searchColumn, searchText, storedSearch } from '../list-index/projection';
import { measure } from './list-timing';
import { keyOrder, type Pause, Ranking, sliced } from './order';
import { orderSlots } from './order-slots';
import { EntityRows } from './rows';
import type { EngineSpec } from './spec';

export interface PageQuery {
  search?: string;
  /** 1-based. */
  page?: number;
  pageSize?: number;
  sort?: { field: string; dir: 'asc' | 'desc' };
  /** Only rows whose fields have these values (the pages of one book; teachers by status). */
  where?: Readonly<Record<string, string>>;
}

export interface PageAnswer {
  /** The keys of the page's rows, in order. */
  keys: string[];
  /** Rows matching the query's filters and search, over all pages. */
  total: number;
  page: number;
  pageSize: number;
}

/** The rows a query's filters and search leave: all live rows, or a set of slots. */
type Match =
  | { all: true; count: number }
  | { all: false; count: number; mask: Uint8Array; slots: Int32Array };

/**
 * How `need` reads missing columns: `queued`, in the engine's queue, for a query that waits
 * for them; ahead of use, outside it, so that loads and updates queued meanwhile do not wait:
 * `whole` (one request, the quickest: figures a screen waits for) or `pieces` (a keystroke's
 * reads pass them: work nobody waits for yet). ListEngine.loadColumns.
 */
export type ColumnRead = 'queued' | 'whole' | 'pieces';

export class EntityIndex {
  readonly rows: EntityRows;
  /** Grows with every change of the rows. */
  version = 0;
  /** Live slots in key order, and each slot's place in it, as of `rows.keyChanges` = `keysAt`. */
  private keyPerm: Int32Array = new Int32Array(0);
  private keyRank: Int32Array = new Int32Array(0);
  private keysAt = -1;
  private readonly orders = new Map<string, { ranking: Ranking; perm: Int32Array | null; stamp: string }>();
  private hay: string[] | null = null;
  private readonly resolved = new Map<string, { stamp: string; values: string[] }>();
  private lastMatch: { stamp: string; where: string; needle: string; match: Match } | null = null;
  /** The column of folded search text the list index keeps, when it keeps one. */
  readonly searchField: string | null;

  constructor(
    readonly spec: EngineSpec,
    /** The loaded index of a parent entity, for its titles. */
    private readonly parent: (name: string) => EntityIndex | undefined,
    /** Loads columns of this entity's rows from the list index (ListEngine). */
    private readonly load: (fields: readonly string[], read: ColumnRead, stop?: AbortSignal) => Promise<void>,
    private readonly pause?: Pause,
    /** Loads a parent entity's index (a list's first answer does not wait for its parents). */
    private readonly openParent: (name: string) => Promise<unknown> = async () => {},
  ) {
    this.rows = new EntityRows();
    const search = storedSearch(spec.projection);
    this.searchField = search ? searchColumn(search) : null;
  }

  /** The columns a search reads: the stored search text, or the search fields. */
  get searchFields(): readonly string[] {
    return this.searchField ? [this.searchField] : this.spec.search;
  }

  /**
   * Loads what these fields need: their own columns, and for a parent's name the ref's ids and
   * the parent's titles, read as `read` says.
   */
  async need(fields: readonly string[], read: ColumnRead = 'queued', stop?: AbortSignal): Promise<void> {
    const own = new Set<string>();
    const parents = new Set<string>();
    for (const field of fields) {
      if (field === this.spec.projection.key) continue;
      own.add(field);
      const name = this.spec.names.find((n) => n.name === field);
      if (name) {
        own.add(name.field);
        parents.add(name.parent);
      }
    }
    const missing = [...own].filter((f) => !this.rows.cols.has(f));
    if (missing.length) await this.load(missing, read, stop);
    for (const name of parents) {
      await this.openParent(name);
      const parent = this.parent(name);
      if (parent) await parent.need([parent.spec.title]);
    }
  }

  /** The fields a query's matching reads: its filters, its search fields (when it searches). */
  private matchFields(q: PageQuery): string[] {
    return [...Object.keys(q.where ?? {}), ...(q.search?.trim() ? this.searchFields : [])];
  }

  /** Takes note of changed rows (rows.apply's answer). */
  absorb(touched: readonly number[]): void {
    if (touched.length === 0) return;
    this.version += 1;
    if (!this.hay || this.searchField) return;
    const columns = this.spec.search.map((f) => this.column(f));
    for (const slot of touched) this.hay[slot] = this.searchText(slot, columns);
  }

  /** Takes note that a parent's titles changed. */
  parentsChanged(): void {
    if (this.spec.names.some((n) => this.spec.search.includes(n.name))) this.hay = null;
  }

  /** This index's version and its parents': what derived data was computed from. */
  private stamp(): string {
    const parents = this.spec.names.map((n) => this.parent(n.parent)?.version ?? -1);
    return parents.length ? `${this.version}:${parents.join(':')}` : String(this.version);
  }

  /** Each slot's value of a field as lists show it: a parent's current title, a choice's name. */
  column(field: string): string[] {
    if (field === this.spec.projection.key) return this.rows.keys;
    const own = this.rows.cols.get(field);
    if (!own) throw new Error(`${this.spec.name}.${field} is not loaded`);
    const name = this.spec.names.find((n) => n.name === field);
    const choices = this.spec.choices[field];
    if (!name && !choices) return own;
    const stamp = this.stamp();
    const cached = this.resolved.get(field);
    if (cached?.stamp === stamp) return cached.values;
    let values: string[];
    if (name) {
      const titles = this.parent(name.parent)?.titles();
      const ids = this.column(name.field);
      values = own.map((v, s) => titles?.get(ids[s]) ?? v);
    } else {
      values = own.map((v) => choices?.[v] ?? v);
    }
    this.resolved.set(field, { stamp, values });
    return values;
  }

  private titlesCache: { version: number; map: Map<string, string> } | null = null;

  /**
   * Key -> the name children show for each row (contract/parent-names.ts), from the projected
   * title column (`spec.title` is `parentNameColumn` of the description).
   */
  titles(): Map<string, string> {
    if (this.titlesCache?.version === this.version) return this.titlesCache.map;
    const title = this.column(this.spec.title);
    const map = new Map<string, string>();
    this.rows.keys.forEach((key, slot) => {
      if (key !== '') map.set(key, nameText(title[slot]));
    });
    this.titlesCache = { version: this.version, map };
    return map;
  }

  /** The titles (see `titles`) when this index has read its title column; else undefined. */
  loadedTitles(): Map<string, string> | undefined {
    const title = this.spec.title;
    return title === this.spec.projection.key || this.rows.cols.has(title) ? this.titles() : undefined;
  }

  private searchText(slot: number, columns = this.spec.search.map((f) => this.column(f))): string {
    if (!this.rows.isLive(slot)) return '';
    return searchText(columns.map((c) => c[slot]));
  }

  /**
   * The key order (numeric ids in order, then other keys) and each slot's place in it: computed
   * again only when keys came or went, not after an edit of other values.
   */
  private ensureKeys(): void {
    if (this.keysAt === this.rows.keyChanges) return;
    const started = performance.now();
    this.keyPerm = keyOrder(this.rows.keys);
    this.keyRank = new Int32Array(this.rows.keys.length).fill(-1);
    for (let r = 0; r < this.keyPerm.length; r++) this.keyRank[this.keyPerm[r]] = r;
    this.keysAt = this.rows.keyChanges;
    measure(`key order ${this.spec.name}`, started);
  }

  /**
   * Every live slot in the field's ascending order (ties by key). `pause` lets other work run
   * during a long sort (computing ahead of use pauses longer: ListEngine.warm).
   */
  async order(field: string, pause = this.pause): Promise<Int32Array> {
    for (;;) {
      this.ensureKeys();
      if (field === this.spec.projection.key) return this.keyPerm;
      const kind = this.spec.orders[field];
      if (!kind) throw new Error(`${this.spec.name} lists do not sort by ${field}`);
      let order = this.orders.get(field);
      if (!order) {
        order = { ranking: new Ranking(kind), perm: null, stamp: '' };
        this.orders.set(field, order);
      }
      const stamp = this.stamp();
      if (order.perm && order.stamp === stamp) return order.perm;
      const started = performance.now();
      const values = this.column(field);
      await order.ranking.add(
        this.keyPerm.length === values.length ? values : Array.from(this.keyPerm, (s) => values[s]),
        pause,
      );
      if (stamp !== this.stamp() || this.keysAt !== this.rows.keyChanges) continue;
      const ranking = order.ranking;
      const ranks = new Float64Array(this.rows.keys.length);
      const slots = this.keyPerm;
      await sliced(
        slots.length,
        (i) => {
          ranks[slots[i]] = ranking.rankOf(values[slots[i]]);
        },
        pause,
      );
      if (stamp !== this.stamp() || this.keysAt !== this.rows.keyChanges) continue;
      const perm = await orderSlots(slots, ranks, this.keyRank, this.keyPerm, pause);
      if (stamp !== this.stamp() || this.keysAt !== this.rows.keyChanges) continue;
      order.perm = perm;
      order.stamp = stamp;
      measure(`order ${this.spec.name}.${field}`, started);
      return order.perm;
    }
  }

  /**
   * The search text of every row: the stored column (kept current with the rows), or built
   * once and then patched as rows change. Its columns loaded.
   */
  prepareSearch(): string[] {
    if (this.searchField) return this.column(this.searchField);
    if (!this.hay) {
      const started = performance.now();
      const columns = this.spec.search.map((f) => this.column(f));
      this.hay = this.rows.keys.map((_, s) => this.searchText(s, columns));
      measure(`search text ${this.spec.name}`, started);
    }
    return this.hay;
  }

  /** The rows that pass the filters and the search (their columns loaded: `need`). */
  match(where: Readonly<Record<string, string>> = {}, search = ''): Match {
    const needle = foldText(search.trim());
    const filters = Object.entries(where).map(([f, v]) => [this.column(f), v] as const);
    if (!needle && filters.length === 0) return { all: true, count: this.rows.count };
    const stamp = this.stamp();
    const whereKey = JSON.stringify(Object.entries(where).sort());
    const last = this.lastMatch;
    if (last && last.stamp === stamp && last.where === whereKey && last.needle === needle) return last.match;
    // A search that extends the previous one looks only among the previous matches.
    const narrowing =
      last &&
      last.stamp === stamp &&
      last.where === whereKey &&
      needle.includes(last.needle) &&
      !last.match.all
        ? last.match.slots
        : null;
    const candidates = narrowing ?? this.filtered(filters);
    const hay = needle ? this.prepareSearch() : [];
    const mask = new Uint8Array(this.rows.keys.length);
    // Written in place: a one-letter search keeps half of a hundred thousand rows.
    const found = new Int32Array(candidates.length);
    let count = 0;
    for (let i = 0; i < candidates.length; i++) {
      const s = candidates[i];
      if (needle && !hay[s].includes(needle)) continue;
      mask[s] = 1;
      found[count++] = s;
    }
    const match: Match = { all: false, count, mask, slots: found.subarray(0, count) };
    this.lastMatch = { stamp, where: whereKey, needle, match };
    return match;
  }

  private filtered(filters: readonly (readonly [string[], string])[]): Int32Array {
    const live = this.rows.liveSlots();
    if (filters.length === 0) return live;
    return live.filter((s) => filters.every(([values, v]) => values[s] === v));
  }

  /** Whether the field may order this entity's lists. */
  sorts(field: string): boolean {
    return field === this.spec.projection.key || field in this.spec.orders;
  }

  /** A query's order (its own when the list sorts by it, else the list's), its rows in that order, and its matches. */
  private async evaluate(q: PageQuery) {
    const sort = q.sort && this.sorts(q.sort.field) ? q.sort : this.spec.defaultSort;
    await this.need([...this.matchFields(q), sort.field]);
    const order = await this.order(sort.field);
    return { sort, order, match: this.match(q.where, q.search) };
  }

  /** A query's page: the keys in order, the total, the page (within the pages there are). */
  async page(q: PageQuery): Promise<PageAnswer> {
    const pageSize = q.pageSize ?? this.spec.pageSize;
    const { sort, order, match } = await this.evaluate(q);
    const pages = Math.max(1, Math.ceil(match.count / pageSize));
    const page = Math.min(Math.max(1, q.page ?? 1), pages);
    const keys = this.slice(order, match, sort.dir, (page - 1) * pageSize, pageSize);
    return { keys, total: match.count, page, pageSize };
  }

  /** `count` keys of the matching rows in order, from the `offset`-th. */
  private slice(
    order: Int32Array,
    match: Match,
    dir: 'asc' | 'desc',
    offset: number,
    count: number,
  ): string[] {
    const keys: string[] = [];
    const n = order.length;
    const at = (i: number) => order[dir === 'asc' ? i : n - 1 - i];
    if (match.all) {
      for (let i = offset; i < Math.min(n, offset + count); i++) keys.push(this.rows.keys[at(i)]);
      return keys;
    }
    let seen = 0;
    for (let i = 0; i < n && keys.length < count; i++) {
      const s = at(i);
      if (match.mask[s] !== 1) continue;
      if (seen++ >= offset) keys.push(this.rows.keys[s]);
    }
    return keys;
  }

  /** The place (0-based) of a key among a query's rows, or -1 when the query does not hold it. */
  async position(q: PageQuery, key: string): Promise<number> {
    const { sort, order, match } = await this.evaluate(q);
    const slot = this.rows.slot(key);
    if (slot === undefined || (!match.all && match.mask[slot] !== 1)) return -1;
    const n = order.length;
    let seen = 0;
    for (let i = 0; i < n; i++) {
      const s = order[sort.dir === 'asc' ? i : n - 1 - i];
      if (s === slot) return seen;
      if (match.all || match.mask[s] === 1) seen++;
    }
    return -1;
  }

  /** Every matching key in order, `limit` at a time from `offset` (for work on all of them). */
  async keys(q: PageQuery, offset: number, limit: number): Promise<{ keys: string[]; total: number }> {
    const { sort, order, match } = await this.evaluate(q);
    return { keys: this.slice(order, match, sort.dir, offset, limit), total: match.count };
  }

  /**
   * How many matching rows have each value of a field. No order is needed, and the columns are
   * read outside the engine's queue: a dashboard's figures, asked as it opens, do not hold the
   * list opened next and its first keystroke behind their reads. Once `stop` aborts (the
   * figures are no longer shown), columns not read yet are not read.
   */
  async counts(q: PageQuery, field: string, stop?: AbortSignal): Promise<Map<string, number>> {
    await this.need([...this.matchFields(q), field], 'whole', stop);
    const match = this.match(q.where, q.search);
    const values = this.column(field);
    const out = new Map<string, number>();
    const slots = match.all ? this.rows.liveSlots() : match.slots;
    for (const s of slots) out.set(values[s], (out.get(values[s]) ?? 0) + 1);
    return out;
  }
}
