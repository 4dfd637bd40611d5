/** Rows as the server sends them, made into rows as the local store keeps them. */
import type { EntityDescription } from '../../contract/entity';
import { normaliseId } from '../../contract/wire';
import type { Row } from '../../db/database';
import { taskPacer } from '../../db/next-task';

/** What normalising does to each of an entity's fields, worked out once per entity. */
interface FieldRules {
  /** Never kept: a reply's success and message, and passwords (withoutPasswords says why). */
  dropped: ReadonlySet<string>;
  /** References to parents: ids, as text. */
  refs: ReadonlySet<string>;
  /** Sets of ids (assigned books). */
  relations: ReadonlySet<string>;
}

const rulesByEntity = new WeakMap<EntityDescription, FieldRules>();

function rulesOf(entity: EntityDescription): FieldRules {
  let rules = rulesByEntity.get(entity);
  if (!rules) {
    const fields = Object.entries(entity.fields);
    rules = {
      dropped: new Set([
        'success',
        'message',
        ...fields.filter(([, spec]) => spec.kind === 'password').map(([name]) => name),
      ]),
      refs: new Set(fields.filter(([, spec]) => spec.kind === 'ref').map(([name]) => name)),
      relations: new Set(Object.keys(entity.relations ?? {})),
    };
    rulesByEntity.set(entity, rules);
  }
  return rules;
}

/**
 * Ids are text locally whatever the server sends; so are references to parents and sets of ids.
 * The row is built by copying what it keeps, never by deleting from a copy: deleting a property
 * that is not the last one added turns a V8 object into a slow dictionary, and every pulled row
 * then cost more to copy into IndexedDB (structured clone) and to read for the list index
 * (about 1.6-2.5x the serialisation time of a student row in a Node micro-benchmark).
 */
export function normaliseRow(entity: EntityDescription, raw: Record<string, unknown>): Row | null {
  const key = entity.single ? entity.single.id : normaliseId(raw[entity.key]);
  if (key === null) return null;
  const { dropped, refs, relations } = rulesOf(entity);
  const row: Row = {};
  for (const name of Object.keys(raw)) {
    if (dropped.has(name)) continue;
    const value = raw[name];
    if (name === entity.key) row[name] = key;
    else if (refs.has(name) && value !== undefined) row[name] = normaliseId(value) ?? '';
    else if (relations.has(name)) {
      // A server that sends no set leaves the local set alone.
      if (Array.isArray(value)) row[name] = value.map(normaliseId).filter((id) => id !== null);
    } else row[name] = value;
  }
  if (!(entity.key in row)) row[entity.key] = key;
  return row;
}

/** Time (ms) one task may spend normalising a reply's rows before the next task goes on. */
export const NORMALISE_TASK_MS = { value: 10 };

/**
 * A reply's rows normalised (those without a key left out) in tasks of about NORMALISE_TASK_MS:
 * a page of 5,000 students is some 150 ms of work on a slow tablet. `now`: the clock.
 */
export async function normaliseRows(
  entity: EntityDescription,
  raws: readonly Record<string, unknown>[],
  now: () => number = () => performance.now(),
): Promise<Row[]> {
  const rows: Row[] = [];
  const pace = taskPacer(() => NORMALISE_TASK_MS.value, now);
  for (const raw of raws) {
    await pace();
    const row = normaliseRow(entity, raw);
    if (row !== null) rows.push(row);
  }
  return rows;
}

/**
 * A device never keeps a password read from a server (ours sends a placeholder meaning "keep",
 * contract/password-placeholder.ts; a PHP server perhaps the stored value): a form would show
 * it as the record's password. Only an edit's merge sees it (sync/merge/current-record.ts).
 */
export function withoutPasswords<R extends Record<string, unknown>>(entity: EntityDescription, row: R): R {
  const out = { ...row };
  for (const [name, spec] of Object.entries(entity.fields)) if (spec.kind === 'password') delete out[name];
  return out;
}
