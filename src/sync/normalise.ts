/** Rows as the server sends them, made into rows as the local store keeps them. */
import type { EntityDescription } from '../contract/entity';
import { normaliseId } from '../contract/wire';
import type { Row } from '../db/database';

/** Ids are text locally whatever the server sends; so are references to parents. */
export function normaliseRow(entity: EntityDescription, raw: Record<string, unknown>): Row | null {
  const key = entity.single ? entity.single.id : normaliseId(raw[entity.key]);
  if (key === null) return null;
  const row: Row = { ...raw, [entity.key]: key };
  delete row.success;
  delete row.message;
  for (const [name, spec] of Object.entries(entity.fields)) {
    if (spec.kind === 'ref' && raw[name] !== undefined) row[name] = normaliseId(raw[name]) ?? '';
    // Never kept from a server (withoutPasswords below says why); done here, on the row this
    // function copied already, as it runs for every pulled row.
    else if (spec.kind === 'password') delete row[name];
  }
  // Sets of ids (assigned books) too; a server that sends none leaves the local set alone.
  for (const name of Object.keys(entity.relations ?? {})) {
    const ids = raw[name];
    if (Array.isArray(ids)) row[name] = ids.map(normaliseId).filter((id) => id !== null);
    else delete row[name];
  }
  return row;
}

/**
 * A device never keeps a password read from a server (ours sends a placeholder meaning "keep",
 * contract/password-placeholder.ts; a PHP server perhaps the stored value): a form would show
 * it as the record's password. Only an edit's merge sees it (current-record.ts).
 */
export function withoutPasswords<R extends Record<string, unknown>>(entity: EntityDescription, row: R): R {
  const out = { ...row };
  for (const [name, spec] of Object.entries(entity.fields)) if (spec.kind === 'password') delete out[name];
  return out;
}
