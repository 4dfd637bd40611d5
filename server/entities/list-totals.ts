/**
 * Figures a list reply carries beside its rows (`entity.api.listTotals`): `fetchteachers.php`
 * answers `totalDisabled` (teachers with status Disabled) and `totalBRow` (books assigned to
 * no school, no teacher and no student: the dashboard's Books Not Assigned).
 */
import type { EntityDescription } from '../../src/contract/entity';
import type { Query } from '../db';
import type { EntityGraph } from './graph';
import { relationTables } from './relation-table';
import { ident } from './sql';

export type ListTotals = (q: Query) => Promise<Record<string, number>>;

export function listTotals(entity: EntityDescription, graph: EntityGraph): ListTotals {
  const figures = Object.entries(entity.api.listTotals ?? {}).map(([name, total]) => {
    if ('count' in total) {
      const fields = Object.keys(total.count);
      for (const f of fields)
        if (!(f in entity.fields)) throw new Error(`${entity.name}: total ${name} on unknown ${f}`);
      const where = fields.map((f, i) => `${ident(f)} = $${i + 1}`).join(' AND ');
      return {
        name,
        sql: `SELECT count(*) AS n FROM ${ident(entity.table)} WHERE ${where}`,
        params: Object.values(total.count),
      };
    }
    // Records of the target no set relation of any entity names.
    const target = graph.byName(total.unrelated);
    const sets = graph.entities
      .flatMap((e) => relationTables(e, graph))
      .filter((r) => r.target.name === target.name)
      .map((r) => `NOT EXISTS (SELECT 1 FROM ${r.table} j WHERE j.${r.targetColumn} = t.${r.targetColumn})`);
    const where = sets.length > 0 ? `WHERE ${sets.join(' AND ')}` : '';
    return { name, sql: `SELECT count(*) AS n FROM ${ident(target.table)} t ${where}`, params: [] };
  });
  return async (q) => {
    const out: Record<string, number> = {};
    for (const f of figures) out[f.name] = (await q<{ n: number }>(f.sql, f.params))[0].n;
    return out;
  };
}
