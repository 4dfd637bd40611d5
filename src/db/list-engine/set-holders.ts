/**
 * Who holds each target of a set (the books assigned to schools, teachers, students: a
 * multi-entry index over the owner rows' field), kept in memory so that a write can be
 * followed by reading the rows it wrote instead of counting the index again (at 100,000
 * students a recount reads the whole index after every write to an owner table, and holds the
 * table against the other tabs' saves meanwhile). Exact: a write of keys
 * not known (a range, 50 rows or more) counts again from the index. No DOM.
 */
import type { IndexableType } from 'dexie';
import type { LocalDb } from '../database';

/** Above this many written rows, counting again from the index is cheaper than reading them. */
const MOST_ROWS_READ = 1000;

/** The index keys a row's field gives a multi-entry index: each distinct string or number. */
function targetsOf(value: unknown): Set<string> {
  const values = Array.isArray(value) ? value : value === undefined ? [] : [value];
  return new Set(values.filter((v) => typeof v === 'string' || typeof v === 'number').map(String));
}

export class SetHolders {
  /** Each target's holders (the owner rows' primary keys, as strings); null before the first count. */
  private byTarget: Map<string, Set<string>> | null = null;

  constructor(
    private readonly db: LocalDb,
    readonly table: string,
    readonly relation: string,
  ) {}

  /** How many rows hold each target (targets no row holds are left out). */
  counts(): [string, number][] {
    return [...(this.byTarget ?? [])].flatMap(([target, owners]) =>
      owners.size > 0 ? [[target, owners.size] as [string, number]] : [],
    );
  }

  /**
   * Follows a write to the owner table: `keys` the rows written (null: not known), read and
   * compared with what they held. Returns whether any target's holders moved.
   */
  async written(keys: readonly IndexableType[] | null): Promise<boolean> {
    if (!this.byTarget || keys === null || keys.length > MOST_ROWS_READ) return this.count();
    const byTarget = this.byTarget;
    const rows = await this.db.table(this.table).bulkGet([...keys]);
    let moved = false;
    keys.forEach((key, i) => {
      const owner = String(key);
      const now = targetsOf(rows[i]?.[this.relation]);
      for (const [target, owners] of byTarget)
        if (owners.has(owner) && !now.has(target)) {
          owners.delete(owner);
          moved = true;
        }
      for (const target of now) {
        const owners = byTarget.get(target) ?? new Set<string>();
        byTarget.set(target, owners);
        if (!owners.has(owner)) {
          owners.add(owner);
          moved = true;
        }
      }
    });
    return moved;
  }

  /**
   * Counts from the index: the targets held (its unique keys) and each one's holders (the
   * primary keys under it, one `getAllKeys` each), in one read transaction.
   */
  private async count(): Promise<boolean> {
    const table = this.db.table(this.table);
    const byTarget = await this.db.transaction('r', table, async () => {
      const targets = await table.orderBy(this.relation).uniqueKeys();
      const owners = await Promise.all(
        targets.map((t) => table.where(this.relation).equals(t).primaryKeys()),
      );
      return new Map(targets.map((t, i) => [String(t), new Set(owners[i].map(String))]));
    });
    const before = this.byTarget;
    this.byTarget = byTarget;
    return !before || !sameHolders(before, byTarget);
  }
}

function sameHolders(a: Map<string, Set<string>>, b: Map<string, Set<string>>): boolean {
  const held = (m: Map<string, Set<string>>) => [...m].filter(([, owners]) => owners.size > 0);
  const ha = held(a);
  if (ha.length !== held(b).length) return false;
  return ha.every(([target, owners]) => {
    const other = b.get(target);
    return other?.size === owners.size && [...owners].every((o) => other.has(o));
  });
}
