/**
 * One entity's projected rows in memory, column by column: each row has a slot (its place in
 * every column), found from its key. Filled from the list index (list-index/) key column first
 * (a list's first answer in key order needs nothing else); other columns are loaded when a
 * search, a sort or a filter first needs them. Kept current chunk by chunk: a changed chunk's
 * rows are set, and its rows that are gone free their slots for later rows. Each change
 * reports the slots it touched, so what is derived from the columns (search text, orders) is
 * patched, not rebuilt.
 */

/** A chunk as read after a change: its version, its keys, and the loaded columns' values, in its row order. */
export interface ChunkRows {
  n: number;
  v: number;
  keys: string[];
  cols: ReadonlyMap<string, string[]>;
}

export class EntityRows {
  /** Slot -> key; '' for a free slot. */
  readonly keys: string[] = [];
  /** Loaded columns: field -> slot -> value. */
  readonly cols = new Map<string, string[]>();
  /** Rows held (slots in use). */
  count = 0;
  /**
   * Grows when a key comes or goes (not when a row's other values change): the key order is
   * computed again only then, so an edit, or a page jump after one, does not recompute it.
   */
  keyChanges = 0;
  /** Key -> slot, built when first needed (a first load that is only read does not). */
  private slotMap: Map<string, number> | null = new Map();
  private readonly free: number[] = [];
  /** Each chunk's rows' slots in the chunk's row order, and the chunk's version, as last read. */
  private readonly chunkSlots = new Map<number, Int32Array>();
  readonly chunkVersions = new Map<number, number>();

  private get slotOf(): Map<string, number> {
    if (!this.slotMap) {
      const map = new Map<string, number>();
      this.keys.forEach((key, slot) => {
        if (key !== '') map.set(key, slot);
      });
      this.slotMap = map;
    }
    return this.slotMap;
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
   * Applies chunks read from the index (new or changed since read, with every loaded column)
   * and forgets the chunks that are gone; returns the slots whose rows changed, came or went.
   */
  apply(chunks: readonly ChunkRows[], gone: readonly number[]): number[] {
    if (this.keys.length === 0 && gone.length === 0) return this.fill(chunks);
    const touched: number[] = [];
    for (const n of gone) {
      for (const slot of this.chunkSlots.get(n) ?? []) this.remove(slot, touched);
      this.chunkSlots.delete(n);
      this.chunkVersions.delete(n);
    }
    for (const chunk of chunks) {
      const now = new Set(chunk.keys);
      for (const slot of this.chunkSlots.get(chunk.n) ?? [])
        if (!now.has(this.keys[slot])) this.remove(slot, touched);
      const slots = new Int32Array(chunk.keys.length);
      chunk.keys.forEach((key, i) => {
        slots[i] = this.set(key, chunk.cols, i, touched);
      });
      this.chunkSlots.set(chunk.n, slots);
      this.chunkVersions.set(chunk.n, chunk.v);
    }
    return touched;
  }

  /** The first load: every chunk's rows appended (into arrays made at their full size). */
  private fill(chunks: readonly ChunkRows[]): number[] {
    let total = 0;
    for (const chunk of chunks) total += chunk.keys.length;
    const keys = this.keys;
    keys.length = total;
    const fields = new Set(chunks.flatMap((c) => [...c.cols.keys()]));
    const cols = [...fields].map((field) => {
      const col = new Array<string>(total);
      this.cols.set(field, col);
      return [field, col] as const;
    });
    let base = 0;
    for (const chunk of chunks) {
      const size = chunk.keys.length;
      const slots = new Int32Array(size);
      for (let i = 0; i < size; i++) {
        keys[base + i] = chunk.keys[i];
        slots[i] = base + i;
      }
      for (const [field, col] of cols) {
        const values = chunk.cols.get(field);
        for (let i = 0; i < size; i++) col[base + i] = values?.[i] ?? '';
      }
      this.chunkSlots.set(chunk.n, slots);
      this.chunkVersions.set(chunk.n, chunk.v);
      base += size;
    }
    this.count = total;
    this.keyChanges += 1;
    this.slotMap = null;
    const touched = new Array<number>(total);
    for (let s = 0; s < total; s++) touched[s] = s;
    return touched;
  }

  /** A column's values read for every chunk as last read (in each chunk's row order). */
  loadColumn(field: string, chunks: ReadonlyMap<number, string[]>): void {
    const col = new Array<string>(this.keys.length).fill('');
    for (const [n, slots] of this.chunkSlots) {
      const values = chunks.get(n) ?? [];
      for (let i = 0; i < slots.length; i++) col[slots[i]] = values[i] ?? '';
    }
    this.cols.set(field, col);
  }

  private set(key: string, from: ReadonlyMap<string, string[]>, i: number, touched: number[]): number {
    let slot = this.slotOf.get(key);
    if (slot !== undefined) {
      let same = true;
      for (const [field, col] of this.cols) if (col[slot] !== from.get(field)?.[i]) same = false;
      if (same) return slot;
    } else {
      slot = this.free.pop() ?? this.keys.length;
      this.keys[slot] = key;
      this.slotOf.set(key, slot);
      this.count += 1;
      this.keyChanges += 1;
    }
    for (const [field, col] of this.cols) col[slot] = from.get(field)?.[i] ?? '';
    touched.push(slot);
    return slot;
  }

  private remove(slot: number, touched: number[]): void {
    const key = this.keys[slot];
    if (key === '' || key === undefined) return;
    this.slotOf.delete(key);
    this.keys[slot] = '';
    for (const col of this.cols.values()) col[slot] = '';
    this.free.push(slot);
    this.count -= 1;
    this.keyChanges += 1;
    touched.push(slot);
  }
}
