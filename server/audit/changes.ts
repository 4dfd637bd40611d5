/**
 * An entry's `changes`: the fields a write changed, `{field: [old, new]}`, by the API's field
 * names (the columns, which are the descriptions' field names), from the rows before and after
 * the write as the database returned them. Secrets (password fields, stored hashed) read as
 * "[hidden]" on both sides; files are their stored names, which is what the rows hold, with the
 * names they had on the device in columns of their own (src/contract/original-file-name.ts).
 * The change tracking's `rev` is not a field; the key is the entry's record id, not a change
 * (except where it is the record's one field: a content image is its file name).
 */
import { HIDDEN_VALUE } from '../../src/contract/audit/audit-trail';
import type { EntityDescription } from '../../src/contract/entity';

export type Row = Readonly<Record<string, unknown>>;
export type Changes = Record<string, [unknown, unknown]>;

const TRACKING = 'rev';

/** A column's value as JSON keeps it: times as ISO 8601 text. */
function plain(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  return value === undefined ? null : value;
}

const isEmpty = (value: unknown) => value === null || value === undefined || value === '';

function columnsOf(entity: EntityDescription, ...rows: (Row | null)[]): string[] {
  const names = new Set<string>();
  for (const row of rows) for (const name of Object.keys(row ?? {})) names.add(name);
  names.delete(TRACKING);
  if (!(entity.key in entity.fields)) names.delete(entity.key);
  return [...names];
}

const isSecret = (entity: EntityDescription, name: string) => entity.fields[name]?.kind === 'password';

const shown = (entity: EntityDescription, name: string, value: unknown) =>
  isSecret(entity, name) && !isEmpty(value) ? HIDDEN_VALUE : value;

/**
 * What changed between `before` (null: the record did not exist) and `after` (null: it is
 * gone). An add lists its non-empty values, a delete the values it had, an update the fields
 * whose value differs (exactly as stored: '' stays '').
 */
export function changesBetween(entity: EntityDescription, before: Row | null, after: Row | null): Changes {
  const out: Changes = {};
  for (const name of columnsOf(entity, before, after)) {
    const old = before ? plain(before[name]) : null;
    const now = after ? plain(after[name]) : null;
    if (!before && isEmpty(now)) continue;
    if (!after && isEmpty(old)) continue;
    if (JSON.stringify(old) === JSON.stringify(now)) continue;
    out[name] = [shown(entity, name, old), shown(entity, name, now)];
  }
  return out;
}
