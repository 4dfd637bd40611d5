/**
 * One entity's projected rows in memory, column by column: each row has a slot (its place in
 * every column), found from its key. Filled from the list index's chunks (list-index/) in one
 * pass when a list is first opened, then kept current chunk by chunk: a changed chunk's rows
 * are set, and its rows that are gone free their slots for later rows. Each change reports the
 * slots it touched, so what is derived from the columns (search text, orders) is patched, not
 * rebuilt.
 */
import { type StoredChunk, unpackChunk } from '../list-index/chunk';

export class EntityRows {
  /** Slot -> key; '' for a free slot. */
  readonly keys: string[] = [];
  /** Projected field (in the projection's order) -> slot -> value. */
  readonly cols: string[][];
  /** Rows held (slots in use). */
  count = 0;
  private readonly slotOf = new Map<string, number>();
  private readonly free: number[] = [];
  /** The keys each chunk held when last read, and the version read. */
  private readonly chunkKeys = new Map<number, string[]>();
  readonly chunkVersions = new Map<number, number>();

  constructor(width: number) {
    this.cols = Array.from({ length: width }, () => []);
  }

  slot(key: string): number | undefined {
    return this.slotOf.get(key);
  }

  isLive(slot: number): boolean {
    return this.keys[slot] !== '' && this.keys[slot] !== undefined;
  }

  /** Slots in use, in slot order. */
  liveSlots(): Int32Array {
    const out = new Int32Array(this.count);
    let j = 0;
    for (let s = 0; s < this.keys.length; s++) if (this.keys[s] !== '') out[j++] = s;
    return out;
  }

  /**
   * Applies chunks read from the index (new or changed since read) and forgets the chunks that
   * are gone; returns the slots whose rows changed, were added or removed.
   */
  apply(chunks: readonly StoredChunk[], gone: readonly number[]): number[] {
    const touched: number[] = [];
    for (const n of gone) {
      for (const key of this.chunkKeys.get(n) ?? []) this.remove(key, touched);
      this.chunkKeys.delete(n);
      this.chunkVersions.delete(n);
    }
    for (const stored of chunks) {
      const { keys, cols } = unpackChunk(stored);
      const before = this.chunkKeys.get(stored.n);
      if (before) {
        const now = new Set(keys);
        for (const key of before) if (!now.has(key)) this.remove(key, touched);
      }
      for (let i = 0; i < keys.length; i++) this.set(keys[i], cols, i, touched);
      this.chunkKeys.set(stored.n, keys);
      this.chunkVersions.set(stored.n, stored.v);
    }
    return touched;
  }

  private set(key: string, from: string[][], i: number, touched: number[]): void {
    let slot = this.slotOf.get(key);
    if (slot !== undefined) {
      let same = true;
      for (let c = 0; c < this.cols.length && same; c++) same = this.cols[c][slot] === from[c][i];
      if (same) return;
    } else {
      slot = this.free.pop() ?? this.keys.length;
      this.keys[slot] = key;
      this.slotOf.set(key, slot);
      this.count += 1;
    }
    for (let c = 0; c < this.cols.length; c++) this.cols[c][slot] = from[c][i];
    touched.push(slot);
  }

  private remove(key: string, touched: number[]): void {
    const slot = this.slotOf.get(key);
    if (slot === undefined) return;
    this.slotOf.delete(key);
    this.keys[slot] = '';
    for (const col of this.cols) col[slot] = '';
    this.free.push(slot);
    this.count -= 1;
    touched.push(slot);
  }
}
