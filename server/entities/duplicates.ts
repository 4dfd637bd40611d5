/**
 * Records that share a value their description declares unique across the entity (an e-mail):
 * only a database that held them before the unique index was made can (migration
 * 020_unique_emails), as the index refuses new ones. The server names them at start.
 */
import type { EntityDescription } from '../../src/contract/entity';
import { uniqueIndexName, uniqueRules } from '../../src/contract/unique';
import type { Query } from '../db';
import { ident } from './sql';

export interface DuplicateGroup {
  entity: string;
  field: string;
  /** The shared value, in lower case for a caseless rule. */
  value: string;
  /** The records' ids, oldest first: the first stands for the value in the unique index. */
  ids: string[];
}

/**
 * Whether the rule's index left out records that were duplicates when it was made (their ids
 * listed in its expression, migration 020). An index that lists none admits no duplicate, so
 * the start reads nothing from its table; a table without such an index is read.
 */
async function mayHoldDuplicates(q: Query, index: string): Promise<boolean> {
  const [found] = await q<{ definition: string | null }>(
    'SELECT pg_get_indexdef(to_regclass($1)) AS definition',
    [index],
  );
  return !found?.definition?.includes("'{}'::integer[]");
}

/** At most this many groups per rule: a start-up line names them, it does not list a database. */
const MOST_GROUPS = 100;

export async function duplicateGroups(
  q: Query,
  entities: readonly EntityDescription[],
): Promise<DuplicateGroup[]> {
  const groups: DuplicateGroup[] = [];
  for (const entity of entities) {
    for (const rule of uniqueRules(entity).filter((r) => r.within === null)) {
      if (!(await mayHoldDuplicates(q, uniqueIndexName(entity, rule)))) continue;
      const column = `t.${ident(rule.field)}`;
      const value = rule.caseless ? `lower(${column})` : column;
      const rows = await q<{ value: string; ids: string[] }>(
        `SELECT ${value} AS value, array_agg(t.${ident(entity.key)}::text ORDER BY t.${ident(entity.key)}) AS ids
           FROM ${ident(entity.table)} t WHERE ${column} <> ''
          GROUP BY 1 HAVING count(*) > 1 ORDER BY 1 LIMIT ${MOST_GROUPS}`,
      );
      for (const row of rows) groups.push({ entity: entity.name, field: rule.field, ...row });
    }
  }
  return groups;
}

/** The start-up warning's words: how many, and the first few groups. */
export function duplicatesWarning(groups: readonly DuplicateGroup[]): string {
  const named = groups
    .slice(0, 5)
    .map((g) => `${g.entity} ${g.field} ${g.value} (ids ${g.ids.join(', ')})`)
    .join('; ');
  const more = groups.length > 5 ? `; and ${groups.length - 5} more` : '';
  const count =
    groups.length === 1 ? '1 group of records shares' : `${groups.length} groups of records share`;
  return `${count} a value that must be unique; new duplicates are refused, these were there before. Correct or delete them (the app's SETTINGS, Duplicate Records): ${named}${more}.`;
}
