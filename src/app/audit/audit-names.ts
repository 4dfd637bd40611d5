/**
 * Names for the audit trail: the records its entries are about and the records their changes
 * refer to (a student's school, a book's class, assigned books), read from this device by id,
 * so that the trail says "School “Green Valley”" where the server wrote "school_id: 3". A record
 * the device does not hold keeps its id.
 */
import type { AuditEntry } from '../../contract/audit/audit-reply';
import { auditEntityName } from '../../contract/audit/audit-trail';
import { entities } from '../../contract/entities';
import type { EntityDescription } from '../../contract/entity';
import { db } from '../window-context';

/** Entities by the name the trail gives them. */
export const BY_TRAIL_NAME: ReadonlyMap<string, EntityDescription> = new Map(
  entities.map((e) => [auditEntityName(e), e]),
);

/** By entity name, by id: the record's title on this device. */
export type AuditNames = ReadonlyMap<string, ReadonlyMap<string, string>>;

/** The entity a change of `field` refers to: a parent (ref), a set's target, a named record. */
export function referredEntity(entity: EntityDescription, field: string): string | null {
  const spec = entity.fields[field];
  if (spec?.kind === 'ref' && spec.ref) return spec.ref;
  return entity.relations?.[field]?.target ?? null;
}

const idsIn = (value: unknown): string[] =>
  (Array.isArray(value) ? value : [value])
    .filter((v) => v !== null && v !== undefined && v !== '')
    .map(String);

export async function auditNames(entries: readonly AuditEntry[]): Promise<AuditNames> {
  const wanted = new Map<string, Set<string>>();
  const want = (entity: string, ids: string[]) => {
    const set = wanted.get(entity) ?? new Set<string>();
    for (const id of ids) set.add(id);
    wanted.set(entity, set);
  };
  for (const entry of entries) {
    const entity = BY_TRAIL_NAME.get(entry.entity);
    if (!entity) continue;
    want(entity.name, [entry.recordId]);
    for (const [field, [before, after]] of Object.entries(entry.changes)) {
      const target = referredEntity(entity, field);
      if (target) want(target, [...idsIn(before), ...idsIn(after)]);
    }
  }
  const names = new Map<string, Map<string, string>>();
  for (const [name, ids] of wanted) {
    const entity = entities.find((e) => e.name === name);
    if (!entity) continue;
    const keys = [...ids];
    const rows = await db.rows(entity).bulkGet(keys);
    const titles = new Map<string, string>();
    rows.forEach((row, i) => {
      const title = row?.[entity.title];
      if (title !== undefined && title !== null && title !== '') titles.set(keys[i], String(title));
    });
    names.set(name, titles);
  }
  return names;
}
