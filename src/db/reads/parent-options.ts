/**
 * The options of a parent select, from the local store, so cascades work offline and offer
 * records created offline. In a cascading form (spec §4) each select lists only the parents
 * that match the levels above it; changing a level clears the ones below (see `dependants`).
 */

import { entityByName } from '../../contract/entities';
import type { EntityDescription } from '../../contract/entity';
import { parentName, parentNameFields } from '../../contract/parent-names';
import type { LocalDb, Row } from '../database';
import { withParentNames } from './join-parent-names';

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
  // Titles that several rows share are told apart by the rows' own parents' names.
  const counts = new Map<string, number>();
  for (const r of rows) counts.set(titleOf(parent, r), (counts.get(titleOf(parent, r)) ?? 0) + 1);
  const shared = counts.size < rows.length && parentNameFields(parent).length > 0;
  const labelled = shared ? await withParentNames(db, parent, rows) : rows;
  return labelled
    .map((r) => ({ value: String(r[parent.key]), label: labelOf(parent, r, counts) }))
    .sort((a, b) => a.label.localeCompare(b.label, undefined, { numeric: true }));
}

const titleOf = (entity: EntityDescription, row: Row) => parentName(entity, row);

/**
 * A row's option label: its title, or where other rows have the same title, the title and the
 * row's parents' names in field order ('Number Fun — Class 1 · Mathematics'). Any entity whose
 * description names its parents (ref fields with `refName`) gets this.
 */
function labelOf(entity: EntityDescription, row: Row, counts: ReadonlyMap<string, number>): string {
  const title = titleOf(entity, row);
  if ((counts.get(title) ?? 0) < 2) return title;
  const parents = parentNameFields(entity)
    .map(({ name }) => String(row[name] ?? ''))
    .filter((name) => name !== '');
  return parents.length > 0 ? `${title} — ${parents.join(' · ')}` : title;
}

export { dependants } from '../../contract/cascade';
