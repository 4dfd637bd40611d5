/**
 * A single document (`entity.single`: About Us, Terms): one row without an id on the wire. Get
 * answers its fields at the top level (`{success, content}`), empty when it was never written;
 * add and update take the fields alone and both store the one row, inserting it or replacing
 * its fields (the PHP original's add on an existing document and update of a missing one are
 * not known; ours never refuses either, so a device that queued an add offline after another
 * device created the document still delivers its content). Rich text is cleaned before it is
 * stored, as everywhere (rich-text.ts).
 */
import type { EntityDescription, Op } from '../../src/contract/entity';
import { messages } from '../../src/contract/messages';
import { validateWrite } from '../../src/contract/validation';
import { type ApiHandler, ok, refuse } from '../entities/handler';
import { ident } from '../entities/sql';
import { addColumns, updateColumns } from './columns';
import { cleanRichTextFields } from './rich-text';

/** The document's own fields (no key, no rev). */
function documentFields(entity: EntityDescription): string[] {
  const fields = Object.entries(entity.fields);
  const files = fields.filter(([, spec]) => spec.kind === 'file').map(([name]) => name);
  if (files.length > 0) throw new Error(`${entity.name}: a single document cannot hold files (${files})`);
  return fields.map(([name]) => name);
}

export function singleGetHandler(entity: EntityDescription): ApiHandler {
  const fields = documentFields(entity);
  const sql = `SELECT ${fields.map(ident).join(', ')} FROM ${ident(entity.table)} LIMIT 1`;
  return async ({ q }) => {
    const [row] = await q<Record<string, unknown>>(sql);
    const initial = Object.fromEntries(fields.map((f) => [f, entity.fields[f].initial ?? '']));
    return ok({ ...initial, ...row });
  };
}

export function singleWriteHandler(entity: EntityDescription, op: Op): ApiHandler {
  documentFields(entity);
  const text = messages(entity.names);
  const table = ident(entity.table);
  const key = ident(entity.key);
  return async ({ q, body, audit }) => {
    const checked = cleanRichTextFields(entity, op, validateWrite(entity, op, body));
    if (!checked.ok) return refuse(400, checked.message);
    // The document as it was, for the audit trail: an add of an existing one is an update.
    const [before] = await q(`SELECT * FROM ${table} FOR UPDATE`);
    const cols =
      op === 'add' ? addColumns(entity, checked.value) : updateColumns(entity, body, checked.value);
    const names = Object.keys(cols);
    const sql =
      names.length === 0
        ? `INSERT INTO ${table} DEFAULT VALUES ON CONFLICT (${key}) DO NOTHING RETURNING *`
        : `INSERT INTO ${table} (${names.map(ident).join(', ')})
           VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')})
           ON CONFLICT (${key}) DO UPDATE SET ${names.map((n) => `${ident(n)} = EXCLUDED.${ident(n)}`).join(', ')}
           RETURNING *`;
    const [written] = await q(sql, Object.values(cols));
    // Nothing to set and the document there already (DO NOTHING returns no row): it stays as
    // it was read (and locked) above.
    const after = written ?? before;
    if (before) audit.updated(entity, before, after);
    else audit.added(entity, after);
    return ok({ message: op === 'add' ? text.added : text.updated });
  };
}
