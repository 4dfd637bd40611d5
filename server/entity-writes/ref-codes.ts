/**
 * Codes a request may send instead of a parent's id (FieldSpec.codes): the public front-end
 * posts V5's fixed resource-type codes (`resourceType=videos`, api-contract §3.15) where our
 * app posts a resource type's id. Before validation, each such code is replaced by the id of
 * the parent record it names, so every later step (validation, parents that agree, the write)
 * sees an id as from our app.
 *
 * - A value of digits is always an id: ids win, a code is never read into one.
 * - A code names the parent whose title equals the code's title without case (the oldest one
 *   when several do); when there is none it is created, with the code's values, in the
 *   request's transaction (so a refused request leaves none behind), and reaches the devices
 *   at their next pull like any new record.
 * - Anything else is left as sent: validation refuses it ('... must be an id or one of ...').
 *
 * Two requests creating the same code's record at once are serialised by an advisory lock on
 * the table and code, so the second finds the first one's record instead of making another.
 */
import { type EntityDescription, type Op, wireFields } from '../../src/contract/entity';
import { parseWireId, type WireBody } from '../../src/contract/validation';
import type { Query } from '../db';
import type { EntityGraph } from '../entities/graph';
import { ident } from '../entities/sql';

/** The body with every code in a ref field replaced by its parent's id (a new object when any was). */
export async function resolveRefCodes(
  q: Query,
  graph: EntityGraph,
  entity: EntityDescription,
  op: Op,
  body: WireBody,
): Promise<WireBody> {
  let out = body;
  for (const [, spec] of wireFields(entity, op)) {
    if (spec.kind !== 'ref' || !spec.codes || !spec.ref) continue;
    const raw = body[spec.wire];
    if (typeof raw !== 'string' || parseWireId(raw) !== null) continue;
    const code = raw.trim().toLowerCase();
    if (!Object.hasOwn(spec.codes, code)) continue;
    const id = await recordOfCode(q, graph.byName(spec.ref), code, spec.codes[code]);
    out = { ...out, [spec.wire]: String(id) };
  }
  return out;
}

async function recordOfCode(
  q: Query,
  parent: EntityDescription,
  code: string,
  values: Readonly<Record<string, string | number>>,
): Promise<number> {
  const table = ident(parent.table);
  const key = ident(parent.key);
  const title = ident(parent.title);
  const titleOf = String(values[parent.title] ?? code);
  const find = () =>
    q<{ id: number }>(
      `SELECT ${key} AS id FROM ${table} WHERE lower(${title}) = lower($1) ORDER BY ${key} LIMIT 1`,
      [titleOf],
    );
  const [known] = await find();
  if (known) return known.id;
  await q('SELECT pg_advisory_xact_lock(hashtext($1))', [`${parent.table}:${code}`]);
  const [meanwhile] = await find();
  if (meanwhile) return meanwhile.id;
  const names = Object.keys(values);
  const [made] = await q<{ id: number }>(
    `INSERT INTO ${table} (${names.map(ident).join(', ')})
     VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING ${key} AS id`,
    Object.values(values),
  );
  return made.id;
}
