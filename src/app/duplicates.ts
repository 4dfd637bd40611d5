/**
 * The Duplicate Records report: the records on this device that share a value their
 * description declares unique across the entity (schools', teachers' and students' e-mails),
 * each group with the records to open and correct. Read from the device, so it works offline.
 */
import { entities } from '../contract/entities';
import type { EntityDescription } from '../contract/entity';
import { uniqueRules } from '../contract/unique';
import { sharedValues } from '../db/reads/shared-values';
import { db } from './window-context';

export interface DuplicateGroup {
  entity: EntityDescription;
  field: string;
  value: string;
  records: { id: string; title: string }[];
}

/** Groups per entity and field the report shows at most. */
const MOST_GROUPS = 200;

export async function duplicateGroups(): Promise<DuplicateGroup[]> {
  const groups: DuplicateGroup[] = [];
  for (const entity of entities) {
    for (const rule of uniqueRules(entity).filter((r) => r.within === null)) {
      for (const { value, rows } of await sharedValues(db, entity, rule, MOST_GROUPS)) {
        const records = rows.map((row) => ({
          id: String(row[entity.key]),
          title: String(row[entity.title] ?? ''),
        }));
        groups.push({ entity, field: rule.field, value, records });
      }
    }
  }
  return groups;
}
