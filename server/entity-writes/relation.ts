/**
 * A set relation's two endpoints (`entity.relations`, api-contract §3.12): reading the set of
 * an owner (`fetchassigned.php` {school_id} → `assignedBooks: [ids]`) and replacing it
 * (`assignbook.php` {school_id, books: [{book_id}]}). Replacing writes only the difference, so
 * the same set twice changes nothing; every id must name an existing record, or nothing is
 * written.
 */
import { type EntityDescription, idParamOf, type SetRelation } from '../../src/contract/entity';
import { parseWireId } from '../../src/contract/validation';
import type { EntityGraph } from '../entities/graph';
import { type ApiHandler, ok, refuse } from '../entities/handler';
import { notFound, readId } from '../entities/ids';
import { relationTables } from '../entities/relation-table';
import { ident, keyInRange } from '../entities/sql';

function table(entity: EntityDescription, graph: EntityGraph, name: string) {
  const found = relationTables(entity, graph).find((r) => r.name === name);
  if (!found) throw new Error(`${entity.name} has no relation ${name}`);
  return found;
}

export function readSetHandler(
  entity: EntityDescription,
  graph: EntityGraph,
  name: string,
  rel: SetRelation,
): ApiHandler {
  const r = table(entity, graph, name);
  const owner = `SELECT 1 FROM ${ident(entity.table)} WHERE ${r.ownerColumn} = $1`;
  const set = `SELECT ${r.targetColumn} AS id FROM ${r.table} WHERE ${r.ownerColumn} = $1 ORDER BY ${r.targetColumn}`;
  const idParam = idParamOf(entity);
  return async ({ q, query, body }) => {
    const id = readId(entity, rel.read.method === 'GET' ? query[idParam] : body[idParam]);
    if ('reply' in id) return id.reply;
    if ((await q(owner, [id.id])).length === 0) return notFound(entity);
    const rows = await q<{ id: number }>(set, [id.id]);
    return ok({ [rel.read.reply]: rows.map((row) => row.id) });
  };
}

/** The ids of a replacement set: objects carrying `itemKey`, or the ids themselves. */
function idsOf(value: unknown, itemKey: string): string[] | null {
  if (!Array.isArray(value)) return null;
  const ids: string[] = [];
  for (const item of value) {
    const raw = typeof item === 'object' && item !== null ? (item as Record<string, unknown>)[itemKey] : item;
    const id = parseWireId(raw);
    if (id === null) return null;
    if (!ids.includes(id)) ids.push(id);
  }
  return ids;
}

export function writeSetHandler(
  entity: EntityDescription,
  graph: EntityGraph,
  name: string,
  rel: SetRelation,
): ApiHandler {
  const r = table(entity, graph, name);
  const target = ident(r.target.table);
  const idParam = idParamOf(entity);
  const malformed = `${rel.write.field} must be a list of objects with ${rel.write.itemKey}`;
  return async ({ q, body, audit }) => {
    const id = readId(entity, body[idParam]);
    if ('reply' in id) return id.reply;
    const wanted = idsOf(body[rel.write.field], rel.write.itemKey);
    if (wanted === null) return refuse(400, malformed);
    // Locked: a delete of the owner, or of a book being assigned, waits for this write.
    const owner = await q(`SELECT 1 FROM ${ident(entity.table)} WHERE ${r.ownerColumn} = $1 FOR UPDATE`, [
      id.id,
    ]);
    if (owner.length === 0) return notFound(entity);
    const inRange = wanted.filter(keyInRange);
    const found = await q<{ id: number }>(
      `SELECT ${r.targetColumn} AS id FROM ${target} WHERE ${r.targetColumn} = ANY($1::int[]) FOR KEY SHARE`,
      [inRange],
    );
    const known = new Set(found.map((row) => String(row.id)));
    const unknown = wanted.find((w) => !known.has(w));
    if (unknown !== undefined) return refuse(400, `${r.target.names.One} ${unknown} does not exist`);

    const current = await q<{ id: number }>(
      `SELECT ${r.targetColumn} AS id FROM ${r.table} WHERE ${r.ownerColumn} = $1`,
      [id.id],
    );
    const have = new Set(current.map((row) => String(row.id)));
    const removed = [...have].filter((h) => !wanted.includes(h));
    const added = wanted.filter((w) => !have.has(w));
    if (removed.length > 0)
      await q(`DELETE FROM ${r.table} WHERE ${r.ownerColumn} = $1 AND ${r.targetColumn} = ANY($2::int[])`, [
        id.id,
        removed,
      ]);
    if (added.length > 0)
      await q(
        `INSERT INTO ${r.table} (${r.ownerColumn}, ${r.targetColumn}) SELECT $1, unnest($2::int[]) ON CONFLICT DO NOTHING`,
        [id.id, added],
      );
    audit.assigned(entity, id.id, name, [...have].map(Number), wanted.map(Number));
    return ok({ message: rel.messages[0] });
  };
}
