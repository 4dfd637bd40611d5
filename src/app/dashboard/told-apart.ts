/**
 * Names shown side by side on a chart that read the same (two books "Mathematics 5" in different
 * series) get what tells them apart: their parents' names, or else their ids.
 */
import type { EntityDescription } from '../../contract/entity';
import { parentNamesText } from '../../contract/parent-names';
import type { LocalDb } from '../../db/database';
import { withParentNames } from '../../db/reads/join-parent-names';

const repeated = (names: readonly string[]) => {
  const seen = new Map<string, number>();
  for (const name of names) seen.set(name, (seen.get(name) ?? 0) + 1);
  return (name: string) => (seen.get(name) ?? 0) > 1;
};

export async function toldApart(
  db: LocalDb,
  entity: EntityDescription,
  ids: readonly string[],
  names: readonly string[],
): Promise<string[]> {
  const same = repeated(names);
  const alike = ids.filter((_, i) => same(names[i]));
  if (alike.length === 0) return [...names];
  const rows = (await db.rows(entity).bulkGet(alike)).filter((row) => row !== undefined);
  const parents = new Map(
    (await withParentNames(db, entity, rows)).map((row) => [
      String(row[entity.key]),
      parentNamesText(entity, row),
    ]),
  );
  const withParents = names.map((name, i) =>
    same(name) && parents.get(ids[i]) ? `${name} · ${parents.get(ids[i])}` : name,
  );
  const stillSame = repeated(withParents);
  return withParents.map((name, i) => (stillSame(name) ? `${name} (#${ids[i]})` : name));
}
