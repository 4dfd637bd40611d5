/**
 * Rule 5: an edit made offline meets the record as the server has it now. `base` is the
 * record when the edit began. A field only this device changed keeps this device's value;
 * a field only the server changed keeps the server's; a field both changed to different
 * values is a conflict for the administrator to settle.
 */
import { type EntityDescription, wireFields } from '../../contract/entity';
import { canonicalRichText } from '../../contract/rich-text/rich-text-allowlist';
import type { ConflictField, FieldValue } from '../../db/outbox/outbox-entry';

export interface MergeResult {
  /** The values to send: the server's record with this device's changes applied. */
  values: Record<string, FieldValue>;
  conflicts: ConflictField[];
}

const same = (a: unknown, b: unknown) => String(a ?? '') === String(b ?? '');
/** Rich text as the server stores it and as the editor writes it may differ only in form. */
const sameRichText = (a: unknown, b: unknown) =>
  canonicalRichText(String(a ?? '')) === canonicalRichText(String(b ?? ''));

export function mergeEdit(
  entity: EntityDescription,
  base: Record<string, FieldValue>,
  mine: Record<string, FieldValue>,
  server: Record<string, FieldValue>,
): MergeResult {
  const values: Record<string, FieldValue> = { ...base, ...server };
  const conflicts: ConflictField[] = [];
  for (const [field, spec] of wireFields(entity, 'update')) {
    if (!(field in mine)) continue;
    // A new file is always this device's choice; the server's copy is only a name.
    if (spec.kind === 'file') {
      values[field] = mine[field];
      continue;
    }
    // A password is never a conflict: a typed one goes; left empty, what the server's get
    // said goes back (ours: a placeholder meaning "keep"; the PHP API: what its own front-end
    // sends back), else nothing, which keeps it too.
    if (spec.kind === 'password') {
      const typed = String(mine[field] ?? '') !== '';
      values[field] = typed ? mine[field] : (server[field] ?? '');
      continue;
    }
    const equal = spec.kind === 'richtext' ? sameRichText : same;
    const changedHere = !equal(mine[field], base[field]);
    const changedThere = field in server && !equal(server[field], base[field]);
    if (changedHere) values[field] = mine[field];
    if (changedHere && changedThere && !equal(mine[field], server[field])) {
      conflicts.push({ field, mine: mine[field], theirs: server[field] });
    }
  }
  return { values, conflicts };
}
