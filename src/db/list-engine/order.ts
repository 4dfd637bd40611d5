/**
 * Orders of a list's rows, fast enough for a header click at 100,000 rows.
 *
 * The costly part of sorting names is the locale's collation (Intl.Collator: each comparison is
 * far dearer than comparing numbers, and 100,000 names take about 1.7 million). It is paid once
 * per column, on the column's DISTINCT values (300 school names; a few tens of thousands of
 * people's names), in slices that let queries through between them (`sortSliced`), and kept: a
 * value that appears later is placed by binary search. Each value then has a rank, and rows are
 * ordered by (rank, key rank) packed into one float64 and sorted natively (~10 ms at 100,000
 * rows), which is what a change or a new order costs afterwards.
 *
 * How values compare (contract/list-order.ts): numbers and dates by value with the others
 * after them by collation; a status by its plain value; text by collation with numbers inside
 * compared as numbers. Ties go by key, so an order is total and the same in every context.
 */
import type { OrderKind } from '../../contract/list-order';
import { OneAtATime } from './one-at-a-time';

export const collator = new Intl.Collator(undefined, { numeric: true, sensitivity: 'base' });

/** A number from text, NaN when it is none ('' is none). */
function numberOf(kind: OrderKind, value: string): number {
  if (value === '') return Number.NaN;
  return kind === 'date' ? Date.parse(value) : Number(value);
}

/** The comparison of one kind's values (ties unresolved: the key decides). */
export function compareFor(kind: OrderKind): (a: string, b: string) => number {
  if (kind === 'text') return collator.compare;
  if (kind === 'value') return (a, b) => (a < b ? -1 : a > b ? 1 : 0);
  return (a, b) => {
    const na = numberOf(kind, a);
    const nb = numberOf(kind, b);
    const fa = Number.isFinite(na);
    const fb = Number.isFinite(nb);
    if (fa && fb) return na - nb;
    if (fa !== fb) return fa ? -1 : 1;
    return collator.compare(a, b);
  };
}

/**
 * Resolves after letting other work (queued queries) run. `sliceMs`: how long a slice may
 * hold the thread before this pause (SLICE_MS when not given).
 */
export type Pause = (() => Promise<void>) & { sliceMs?: number };

/** Rows (key ranks) that pack with a rank into one float64. */
export const PACK = 2 ** 21;

/** How long a slice of sorting may hold the thread before pausing. */
const SLICE_MS = 8;
const sliceOf = (pause: Pause) => pause.sliceMs ?? SLICE_MS;

/** Runs `step` for 0..n-1, pausing every few milliseconds (straight through without a pause). */
export async function sliced(n: number, step: (i: number) => void, pause?: Pause): Promise<void> {
  let sliceStart = performance.now();
  const slice = pause ? sliceOf(pause) : 0;
  for (let i = 0; i < n; i++) {
    step(i);
    if (pause && (i & 1023) === 1023 && performance.now() - sliceStart > slice) {
      await pause();
      sliceStart = performance.now();
    }
  }
}

/**
 * Natural merge sort (stable) that pauses every few milliseconds: a long collation never holds
 * up the queries that arrive meanwhile (without a pause it runs straight through). It merges
 * the runs already in order, so input that is nearly sorted (values that follow the ids, as
 * generated e-mail addresses do) costs about one comparison per item.
 */
export async function sortSliced<T>(
  items: T[],
  compare: (a: T, b: T) => number,
  pause?: Pause,
): Promise<T[]> {
  let from = items.slice();
  let to = new Array<T>(from.length);
  const n = from.length;
  let sliceStart = performance.now();
  const breathe = async () => {
    if (pause && performance.now() - sliceStart > sliceOf(pause)) {
      await pause();
      sliceStart = performance.now();
    }
  };
  // Where each run in order starts (and n at the end).
  let starts = [0];
  for (let i = 1; i < n; i++) {
    if (compare(from[i], from[i - 1]) < 0) starts.push(i);
    if (i % 2048 === 0) await breathe();
  }
  starts.push(n);
  while (starts.length > 2) {
    const next = [0];
    for (let r = 0; r + 1 < starts.length; r += 2) {
      const lo = starts[r];
      const mid = starts[r + 1];
      const hi = r + 2 < starts.length ? starts[r + 2] : mid;
      let i = lo;
      let j = mid;
      let k = lo;
      while (i < mid && j < hi) to[k++] = compare(from[j], from[i]) < 0 ? from[j++] : from[i++];
      while (i < mid) to[k++] = from[i++];
      while (j < hi) to[k++] = from[j++];
      next.push(hi);
      await breathe();
    }
    if (next.at(-1) !== n) next.push(n);
    starts = next;
    [from, to] = [to, from];
  }
  return from;
}

/**
 * A key for text that orders nearly as the collation does, compared by code unit: case and
 * accents folded (ASCII text only lowercased), numbers inside padded so that they compare as
 * numbers.
 */
function foldedKey(value: string): string {
  const key = /^[\x20-\x7e]*$/.test(value)
    ? value.toLowerCase()
    : value.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase();
  return /\d/.test(key) ? key.replace(/\d+/g, (digits) => digits.padStart(16, '0')) : key;
}

/** Whether fewer than one in sixteen of ~1,000 neighbouring pairs, spread over `values`, are out of order. */
function nearlySorted(values: readonly string[], compare: (a: string, b: string) => number): boolean {
  const step = Math.max(1, Math.floor(values.length / 1024));
  let pairs = 0;
  let descents = 0;
  for (let i = 1; i < values.length; i += step) {
    pairs++;
    if (compare(values[i], values[i - 1]) < 0) descents++;
  }
  return descents * 16 < pairs;
}

/**
 * Text in the collation's order, sorted first by a folded key compared by code unit and only
 * then by the collation (`sortSliced` merges the runs already in order: about one comparison a
 * value where the two agree). The collation's comparisons are what cost (~0.25 µs each): at
 * 31,000 distinct names, 115–151 ms sorted by the collation alone, 46–55 ms this way, on this
 * machine's V8. Where the folded key disagrees (punctuation, other scripts), the second sort
 * still orders fully. Both pause like `sortSliced`.
 */
export async function sortText(
  values: readonly string[],
  compare: (a: string, b: string) => number,
  pause?: Pause,
): Promise<string[]> {
  // Text nearly in order already (generated e-mail addresses follow the ids) is sorted by the
  // collation directly: its runs cost about a comparison a value, less than folding every key.
  if (nearlySorted(values, compare)) return sortSliced(values as string[], compare, pause);
  const keys = new Array<string>(values.length);
  await sliced(
    values.length,
    (i) => {
      keys[i] = foldedKey(values[i]);
    },
    pause,
  );
  const byKey = await sortSliced(
    Array.from(values, (_, i) => i),
    (a, b) => (keys[a] < keys[b] ? -1 : keys[a] > keys[b] ? 1 : 0),
    pause,
  );
  return sortSliced(
    byKey.map((i) => values[i]),
    compare,
    pause,
  );
}

/** Numbers and dates first, in order (sorted natively where they allow), then the rest by `compare`. */
async function sortNumeric(
  kind: OrderKind,
  values: string[],
  compare: (a: string, b: string) => number,
  pause?: Pause,
): Promise<string[]> {
  const numeric: string[] = [];
  const other: string[] = [];
  for (const v of values) (Number.isFinite(numberOf(kind, v)) ? numeric : other).push(v);
  const nums = Float64Array.from(numeric, (v) => numberOf(kind, v));
  const small = numeric.length < PACK && nums.every((x) => Number.isInteger(x) && x >= 0 && x < 2 ** 31);
  let order: Int32Array;
  if (small) {
    const packed = Float64Array.from(nums, (x, i) => x * PACK + i).sort();
    order = Int32Array.from(packed, (p) => p % PACK);
  } else {
    order = Int32Array.from(numeric, (_, i) => i).sort((a, b) => nums[a] - nums[b]);
  }
  // Equal numbers written differently ('7', '07') tie: their rows go by key.
  return [...Array.from(order, (i) => numeric[i]), ...(await sortText(other, compare, pause))];
}

/**
 * The distinct values of a column in order, each with its rank: its place, shared by values
 * that compare equal ('Zoe' and 'Zoë' at the collation's base strength), so that their rows go
 * by key like any tie. New values are placed by binary search; many at once are sorted
 * together and merged.
 */
export class Ranking {
  private sorted: string[] = [];
  /** Whether each value compares equal to the one before it. */
  private tie: boolean[] = [];
  private readonly rank = new Map<string, number>();
  private readonly compare: (a: string, b: string) => number;

  constructor(readonly kind: OrderKind) {
    this.compare = compareFor(kind);
  }

  get size(): number {
    return this.sorted.length;
  }

  rankOf(value: string): number {
    return this.rank.get(value) ?? -1;
  }

  /**
   * Ranks every value not ranked yet; values no longer used keep their place (harmless). Calls
   * run one after another: one that pauses mid-sort is never overtaken by another.
   */
  add(values: readonly string[], pause?: Pause): Promise<void> {
    return this.adding.run(() => this.addNow(values, pause));
  }

  private readonly adding = new OneAtATime();

  private async addNow(values: readonly string[], pause?: Pause): Promise<void> {
    const fresh = new Set<string>();
    await sliced(
      values.length,
      (i) => {
        if (!this.rank.has(values[i])) fresh.add(values[i]);
      },
      pause,
    );
    if (fresh.size === 0) return;
    const incoming =
      this.kind === 'number' || this.kind === 'date'
        ? await sortNumeric(this.kind, [...fresh], this.compare, pause)
        : this.kind === 'text'
          ? await sortText([...fresh], this.compare, pause)
          : await sortSliced([...fresh], this.compare, pause);
    if (this.sorted.length === 0) {
      this.sorted = incoming;
      this.tie = await this.ties(incoming, pause);
      await this.renumber(0, pause);
      return;
    }
    if (incoming.length * 8 < this.sorted.length) {
      // A few: each by binary search; ranks renumbered from the first place that moved.
      let first = this.sorted.length;
      for (const v of incoming) {
        const at = this.placeOf(v);
        this.sorted.splice(at, 0, v);
        this.tie.splice(at, 0, at > 0 && this.compare(this.sorted[at - 1], v) === 0);
        if (at + 1 < this.sorted.length) this.tie[at + 1] = this.compare(v, this.sorted[at + 1]) === 0;
        first = Math.min(first, at);
      }
      await this.renumber(first, pause);
      return;
    }
    const merged: string[] = [];
    let i = 0;
    let j = 0;
    while (i < this.sorted.length && j < incoming.length)
      merged.push(this.compare(incoming[j], this.sorted[i]) < 0 ? incoming[j++] : this.sorted[i++]);
    while (i < this.sorted.length) merged.push(this.sorted[i++]);
    while (j < incoming.length) merged.push(incoming[j++]);
    this.sorted = merged;
    this.tie = await this.ties(merged, pause);
    await this.renumber(0, pause);
  }

  /** Whether each value compares equal to the one before it. */
  private async ties(sorted: readonly string[], pause?: Pause): Promise<boolean[]> {
    const tie = new Array<boolean>(sorted.length).fill(false);
    await sliced(
      sorted.length - 1,
      (k) => {
        tie[k + 1] = this.compare(sorted[k], sorted[k + 1]) === 0;
      },
      pause,
    );
    return tie;
  }

  /** The first place whose value sorts after `value`. */
  private placeOf(value: string): number {
    let lo = 0;
    let hi = this.sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.compare(this.sorted[mid], value) <= 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private async renumber(from: number, pause?: Pause): Promise<void> {
    let r = from > 0 ? (this.rank.get(this.sorted[from - 1]) ?? 0) : 0;
    await sliced(
      this.sorted.length - from,
      (k) => {
        const i = from + k;
        if (!this.tie[i]) r = i;
        this.rank.set(this.sorted[i], r);
      },
      pause,
    );
  }
}

/**
 * Every live slot in key order (ids as numbers, then other keys by collation, equal ones by
 * their text): what every order falls back on for ties. Ids already in order (a first load)
 * are only checked; else they sort natively, packed with their slot into one float64; the few
 * other keys (records made here) by comparison.
 */
export function keyOrder(keys: readonly string[]): Int32Array {
  const numbered: number[] = [];
  const others: number[] = [];
  const value = new Float64Array(keys.length);
  let packable = keys.length < PACK;
  for (let s = 0; s < keys.length; s++) {
    const key = keys[s];
    if (key === '') continue;
    const n = Number(key);
    if (!Number.isFinite(n)) {
      others.push(s);
      continue;
    }
    value[s] = n;
    numbered.push(s);
    if (!Number.isInteger(n) || n < 0 || n >= 2 ** 31) packable = false;
  }
  // The list index keeps each chunk's ids in order and chunks are read in order
  // (list-index/chunk.ts), so after a first load the ids are usually in order already: a check.
  let ascending = true;
  for (let i = 1; i < numbered.length && ascending; i++)
    if (value[numbered[i - 1]] >= value[numbered[i]]) ascending = false;
  let sorted: Int32Array;
  if (ascending) {
    sorted = Int32Array.from(numbered);
  } else if (packable) {
    const packed = Float64Array.from(numbered, (s) => value[s] * PACK + s).sort();
    sorted = Int32Array.from(packed, (p) => p % PACK);
  } else {
    sorted = Int32Array.from(numbered).sort((a, b) => value[a] - value[b]);
  }
  // Equal numbers written differently ('7', '07') go by their text.
  for (let i = 1; i < sorted.length; i++) {
    if (value[sorted[i]] !== value[sorted[i - 1]]) continue;
    let end = i;
    while (end + 1 < sorted.length && value[sorted[end + 1]] === value[sorted[i]]) end++;
    const run = Array.from(sorted.subarray(i - 1, end + 1)).sort((a, b) => (keys[a] < keys[b] ? -1 : 1));
    sorted.set(run, i - 1);
    i = end;
  }
  const rest = others.sort((a, b) => collator.compare(keys[a], keys[b]) || (keys[a] < keys[b] ? -1 : 1));
  const out = new Int32Array(numbered.length + rest.length);
  out.set(sorted);
  out.set(rest, sorted.length);
  return out;
}
