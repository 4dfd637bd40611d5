/**
 * From validated wire values (keyed by wire name) to the columns an add or update writes
 * (keyed by field name). File fields are not here: files.ts checks them and the handler puts
 * the stored name in.
 */
import type { EntityDescription } from '../../src/contract/entity';
import { wireFields } from '../../src/contract/entity';
import type { WireBody } from '../../src/contract/validation';
import { hashForRow } from '../auth/prehashed';

export type Columns = Record<string, string | number | null>;

/** Add: absent optional fields (optional refs sent '' included) are left out: the table's defaults (NULL) apply. */
export function addColumns(entity: EntityDescription, value: Columns): Columns {
  const out: Columns = {};
  for (const [name, spec] of wireFields(entity, 'add'))
    if (spec.kind !== 'file' && value[spec.wire] !== null) out[name] = value[spec.wire];
  return out;
}

/**
 * Update: a field left out of the body keeps its stored value (the legacy client sends only
 * what its form has, e.g. no sortOrder on some screens, no activityFolderName on Update Book).
 * A password sent empty keeps its value too (an empty password means "unchanged"); any other
 * field sent empty goes back to its initial value, so an optional text or ref can be cleared.
 * Required fields never get here empty: validateWrite refuses them.
 */
export function updateColumns(entity: EntityDescription, body: WireBody, value: Columns): Columns {
  const out: Columns = {};
  for (const [name, spec] of wireFields(entity, 'update')) {
    if (spec.kind === 'file' || !(spec.wire in body)) continue;
    const v = value[spec.wire];
    if (v === null && spec.kind === 'password') continue;
    out[name] = v ?? spec.initial ?? null;
  }
  return out;
}

/**
 * Passwords are stored as hashes only (server/auth/password.ts); a row never holds one in
 * clear. The hash is one derived before the transaction when the write pipeline did so
 * (server/auth/prehashed.ts).
 */
export async function hashPasswords(entity: EntityDescription, cols: Columns): Promise<void> {
  for (const [name, spec] of Object.entries(entity.fields)) {
    const value = cols[name];
    if (spec.kind === 'password' && typeof value === 'string') cols[name] = await hashForRow(value);
  }
}
