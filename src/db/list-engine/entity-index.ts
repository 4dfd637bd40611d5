/**
 * One entity's list answers, from its projected rows in memory (rows.ts): filters and search
 * narrow the rows, an order ranks them, and a page is cut from the order. What they need is
 * built when first needed and kept:
 *
 * - the search text of each row (its search fields, folded: fold.ts), patched row by row as
 *   rows change; a search scans it (100,000 short strings in a few milliseconds), and a search
 *   that extends the previous one scans only the previous matches;
 * - the key order (numeric ids; temporary ids after them), the tie-break of every order;
 * - per sortable field, its values' ranking (order.ts) and the rows in that order, rebuilt
 *   after a change from the kept ranking (a native sort of packed numbers).
 *
 * Parents' names come from the parent's own projection: a row's `school_name` is its school's
 * current title (the row's own copy when the school is not on this device).
 */
import { foldText } from './fold';
import { orderSlots, type Pause, Ranking } from './order';
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

/** Separates a row's search fields in its search text: a search never spans two of them. */
const FIELD_BREAK = '\u0001';

export class EntityIndex {
  readonly rows: EntityRows;
  /** Grows with every change of the rows. */
  version = 0;
  private readonly fieldAt: Map<string, number>;
  private readonly keyRanking = new Ranking('number', true);
  private keyRank = new Int32Array(0);
  private slotAtKeyRank = new Int32Array(0);
  private keyPerm = new Int32Array(0);
  private keysVersion = -1;
  private readonly orders = new Map<string, { ranking: Ranking; perm: Int32Array | null; stamp: string }>();
  private hay: string[] | null = null;
  private readonly resolved = new Map<string, { stamp: string; values: string[] }>();
  private lastMatch: { stamp: string; where: string; needle: string; match: Match } | null = null;

  constructor(
    readonly spec: EngineSpec,
    /** The loaded index of a parent entity, for its titles. */
    private readonly parent: (name: string) => EntityIndex | undefined,
    private readonly pause?: Pause,
  ) {
    this.rows = new EntityRows(spec.projection.fields.length);
    this.fieldAt = new Map(spec.projection.fields.map((f, i) => [f, i]));
  }

  /** Takes note of changed rows (rows.apply's answer). */
  absorb(touched: readonly number[]): void {
    if (touched.length === 0) return;
    this.version += 1;
    if (this.hay) for (const slot of touched) this.hay[slot] = this.searchText(slot);
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
    const own = this.rows.cols[this.fieldAt.get(field) ?? -1];
    if (!own) throw new Error(`${this.spec.name} lists do not hold ${field}`);
    const name = this.spec.names.find((n) => n.name === field);
    const choices = this.spec.choices[field];
    if (!name && !choices) return own;
    const stamp = this.stamp();
    const cached = this.resolved.get(field);
    if (cached?.stamp === stamp) return cached.values;
    let values: string[];
    if (name) {
      const titles = this.parent(name.parent)?.titles();
      const ids = this.rows.cols[this.fieldAt.get(name.field) ?? -1];
      values = own.map((v, s) => titles?.get(ids[s]) ?? v);
    } else {
      values = own.map((v) => choices?.[v] ?? v);
    }
    this.resolved.set(field, { stamp, values });
    return values;
  }

  private titlesCache: { version: number; map: Map<string, string> } | null = null;

  /** Key -> title of every row (for the lists of this entity's children). */
  titles(): Map<string, string> {
    if (this.titlesCache?.version === this.version) return this.titlesCache.map;
    const title = this.column(this.spec.title);
    const map = new Map<string, string>();
    this.rows.keys.forEach((key, slot) => {
      if (key !== '') map.set(key, title[slot]);
    });
    this.titlesCache = { version: this.version, map };
    return map;
  }

  private searchText(slot: number): string {
    if (!this.rows.isLive(slot)) return '';
    const parts = this.spec.search.map((f) => this.column(f)[slot]);
    return foldText(parts.length === 1 ? parts[0] : parts.join(FIELD_BREAK));
  }

  /** The key order: every live slot by key (numeric ids in order, then other keys). */
  private async ensureKeys(): Promise<void> {
    while (this.keysVersion !== this.version) {
      const version = this.version;
      await this.keyRanking.add(
        this.rows.keys.filter((k) => k !== ''),
        this.pause,
      );
      if (version !== this.version) continue;
      const slots = this.rows.keys.length;
      const keyRank = new Int32Array(slots).fill(-1);
      const slotAtKeyRank = new Int32Array(this.keyRanking.size).fill(-1);
      for (let s = 0; s < slots; s++) {
        const key = this.rows.keys[s];
        if (key === '') continue;
        const r = this.keyRanking.rankOf(key);
        keyRank[s] = r;
        slotAtKeyRank[r] = s;
      }
      const perm = new Int32Array(this.rows.count);
      let j = 0;
      for (const s of slotAtKeyRank) if (s >= 0) perm[j++] = s;
      this.keyRank = keyRank;
      this.slotAtKeyRank = slotAtKeyRank;
      this.keyPerm = perm;
      this.keysVersion = version;
    }
  }

  /** Every live slot in the field's ascending order (ties by key). */
  async order(field: string): Promise<Int32Array> {
    for (;;) {
      await this.ensureKeys();
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
      const values = this.column(field);
      await order.ranking.add(
        this.keyPerm.length === values.length ? values : Array.from(this.keyPerm, (s) => values[s]),
        this.pause,
      );
      if (stamp !== this.stamp() || this.keysVersion !== this.version) continue;
      const ranking = order.ranking;
      order.perm = orderSlots(
        this.keyPerm,
        (s) => ranking.rankOf(values[s]),
        this.keyRank,
        this.slotAtKeyRank,
      );
      order.stamp = stamp;
      return order.perm;
    }
  }

  /** Computes the orders lists will ask for, before they do (idle time after a list opens). */
  async warm(fields: readonly string[]): Promise<void> {
    for (const field of fields) await this.order(field);
  }

  /** The rows that pass the filters and the search. */
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
    if (needle && !this.hay) this.hay = this.rows.keys.map((_, s) => this.searchText(s));
    const hay = this.hay ?? [];
    const mask = new Uint8Array(this.rows.keys.length);
    const found: number[] = [];
    for (const s of candidates) {
      if (needle && !hay[s].includes(needle)) continue;
      mask[s] = 1;
      found.push(s);
    }
    const match: Match = { all: false, count: found.length, mask, slots: Int32Array.from(found) };
    this.lastMatch = { stamp, where: whereKey, needle, match };
    return match;
  }

  private filtered(filters: readonly (readonly [string[], string])[]): Iterable<number> {
    const live = this.rows.liveSlots();
    if (filters.length === 0) return live;
    return live.filter((s) => filters.every(([values, v]) => values[s] === v));
  }

  /** Whether the field may order this entity's lists. */
  sorts(field: string): boolean {
    return field === this.spec.projection.key || field in this.spec.orders;
  }

  /** A query's page: the keys in order, the total, the page (within the pages there are). */
  async page(q: PageQuery): Promise<PageAnswer> {
    const sort = q.sort && this.sorts(q.sort.field) ? q.sort : this.spec.defaultSort;
    const pageSize = q.pageSize ?? this.spec.pageSize;
    const order = await this.order(sort.field);
    const match = this.match(q.where, q.search);
    const pages = Math.max(1, Math.ceil(match.count / pageSize));
    const page = Math.min(Math.max(1, q.page ?? 1), pages);
    const keys = this.slice(order, match, sort.dir, (page - 1) * pageSize, pageSize);
    return { keys, total: match.count, page, pageSize };
  }

  /** `count` keys of the matching rows in order, from the `offset`-th. */
  slice(order: Int32Array, match: Match, dir: 'asc' | 'desc', offset: number, count: number): string[] {
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
    const slot = this.rows.slot(key);
    if (slot === undefined) return -1;
    const sort = q.sort && this.sorts(q.sort.field) ? q.sort : this.spec.defaultSort;
    const order = await this.order(sort.field);
    const match = this.match(q.where, q.search);
    if (!match.all && match.mask[slot] !== 1) return -1;
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
    const sort = q.sort && this.sorts(q.sort.field) ? q.sort : this.spec.defaultSort;
    const order = await this.order(sort.field);
    const match = this.match(q.where, q.search);
    return { keys: this.slice(order, match, sort.dir, offset, limit), total: match.count };
  }

  /** How many matching rows have each value of a field. */
  counts(q: PageQuery, field: string): Map<string, number> {
    const values = this.column(field);
    const match = this.match(q.where, q.search);
    const out = new Map<string, number>();
    const slots = match.all ? this.rows.liveSlots() : match.slots;
    for (const s of slots) out.set(values[s], (out.get(values[s]) ?? 0) + 1);
    return out;
  }
}
