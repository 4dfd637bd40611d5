/**
 * normaliseRow (src/sync/pull/normalise.ts) builds each pulled row by copying what it keeps. For every
 * entity and any reply row (ids as numbers or text, parents' ids, sets of ids or none, a
 * password, the reply's success and message, other fields), it gives exactly the row the
 * earlier way gave: a copy of the reply with ids made text and passwords, success and message
 * deleted from it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { entities } from '../../../src/contract/entities';
import type { EntityDescription } from '../../../src/contract/entity';
import { normaliseId } from '../../../src/contract/wire';
import { normaliseRow } from '../../../src/sync/pull/normalise';

/** The earlier implementation, by deleting from a copy: the reference. */
function byDeleting(entity: EntityDescription, raw: Record<string, unknown>) {
  const key = entity.single ? entity.single.id : normaliseId(raw[entity.key]);
  if (key === null) return null;
  const row: Record<string, unknown> = { ...raw, [entity.key]: key };
  delete row.success;
  delete row.message;
  for (const [name, spec] of Object.entries(entity.fields)) {
    if (spec.kind === 'ref' && raw[name] !== undefined) row[name] = normaliseId(raw[name]) ?? '';
    else if (spec.kind === 'password') delete row[name];
  }
  for (const name of Object.keys(entity.relations ?? {})) {
    const ids = raw[name];
    if (Array.isArray(ids)) row[name] = ids.map(normaliseId).filter((id) => id !== null);
    else delete row[name];
  }
  return row;
}

const id = fc.oneof(
  fc.integer({ min: -3, max: 10_000 }),
  fc.string({ maxLength: 6 }),
  fc.constant(null),
  fc.constant('null'),
);
const anyValue = fc.oneof(id, fc.boolean(), fc.array(id, { maxLength: 4 }));

/** A reply row for an entity: some of its fields, its relations, and a few others, in any order. */
const replyRow = (entity: EntityDescription) => {
  const names = [
    entity.key,
    ...Object.keys(entity.fields),
    ...Object.keys(entity.relations ?? {}),
    'success',
    'message',
    'extra_field',
  ];
  return fc
    .shuffledSubarray([...new Set(names)])
    .chain((picked) => fc.tuple(...picked.map((name) => anyValue.map((v) => [name, v] as const))))
    .map((pairs) => Object.fromEntries(pairs));
};

describe('normaliseRow', () => {
  for (const entity of entities)
    it(`gives the row the earlier way gave, for ${entity.name}`, () => {
      fc.assert(
        fc.property(replyRow(entity), (raw) => {
          const row = normaliseRow(entity, raw);
          expect(row).toStrictEqual(byDeleting(entity, raw));
          // The reply row is left as it came.
          expect(raw).toEqual(JSON.parse(JSON.stringify(raw)));
        }),
        { numRuns: 100 },
      );
    });
});
