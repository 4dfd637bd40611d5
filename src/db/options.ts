/**
 * The options of a parent select, from the local store, so cascades work offline and offer
 * records created offline. In a cascading form (spec §4) each select lists only the parents
 * that match the levels above it; changing a level clears the ones below (see `dependants`).
 */

import { entityByName } from '../contract/entities';
import type { EntityDescription } from '../contract/entity';
import type { LocalDb, Row } from './database';

export interface Option {
  value: string;
  label: string;
}

const empty = (v: unknown) => v === undefined || v === null || v === '';

/**
 * Narrows `rows` of `parent` to those matching the chosen value of `dep`. When the parent
 * has no such column, its `filters` name a linking entity: subjects belong to a class
 * through a series of both.
 */
async function narrow(
  db: LocalDb,
  parent: EntityDescription,
  rows: Row[],
  dep: string,
  value: unknown,
): Promise<Row[]> {
  if (dep in parent.fields) return rows.filter((r) => r[dep] === value);
  const via = parent.filters?.find((f) => f.param === dep)?.via;
  if (!via) return rows;
  const links = await db
    .rows(entityByName(via))
    .where(dep)
    .equals(value as string)
    .toArray();
  const linked = new Set(links.map((l) => l[parent.key]));
  return rows.filter((r) => linked.has(r[parent.key]));
}

export async function refOptions(
  db: LocalDb,
  entity: EntityDescription,
  field: string,
  values: Record<string, unknown>,
  cascade: boolean,
): Promise<Option[]> {
  const spec = entity.fields[field];
  if (spec?.kind !== 'ref' || !spec.ref) return [];
  const parent = entityByName(spec.ref);
  let rows = await db.rows(parent).toArray();
  if (cascade) {
    for (const dep of spec.dependsOn ?? []) {
      const value = values[dep];
      if (empty(value)) {
        // A required level above is not chosen yet: nothing to offer. An optional one
        // (a unit's section) does not narrow.
        if (entity.fields[dep]?.required) return [];
        continue;
      }
      rows = await narrow(db, parent, rows, dep, value);
    }
  }
  return rows
    .map((r) => ({ value: String(r[parent.key]), label: String(r[parent.title] ?? '') }))
    .sort((a, b) => a.label.localeCompare(b.label, undefined, { numeric: true }));
}

export { dependants } from '../contract/cascade';
