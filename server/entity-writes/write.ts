/**
 * Add and update, driven by the entity description: wire names and validation come from
 * validateWrite, files from files.ts, column names are the description's field names. Each
 * runs inside the request's transaction (server/http/write.ts) through c.var.q and checks
 * everything (fields, files, parents, the row itself) before it stores a file or writes a
 * row, so a refused request writes nothing.
 */
import type { Endpoint } from '../../src/contract/endpoints';
import type { EntityDescription } from '../../src/contract/entity';
import { validateWrite } from '../../src/contract/validation';
import { NEW_ID_FIELD } from '../../src/contract/wire';
import type { Query } from '../db';
import type { EntityGraph } from '../entities/graph';
import { type ApiHandler, ok, refuse } from '../entities/handler';
import { notFound, readId } from '../entities/ids';
import { replyTexts } from '../entities/reply-texts';
import { ident } from '../entities/sql';
import type { ResumableUploads } from '../uploads/resumable';
import { changesRefs, parentDisagreement } from './agreement';
import { addColumns, type Columns, hashPasswords, updateColumns } from './columns';
import { checkFiles, fileFields, storeFile, type UploadLookup } from './files';
import { resolveRefCodes } from './ref-codes';
import { childTouches, missingParent } from './relations';
import { cleanRichTextFields } from './rich-text';

export interface WriteOptions {
  legacy: boolean;
  /** Finished resumable uploads a file field may name (none in legacy mode). */
  resumable?: ResumableUploads;
}

/** The uploads this request's administrator may name. */
export const lookupFor = (adminId: number, { resumable }: WriteOptions): UploadLookup | undefined =>
  resumable && ((reference) => resumable.finished(adminId, reference));

/**
 * An add's columns from its checked values, once its parents exist and agree, passwords
 * hashed; or why it is refused. Shared by the plain add and the add of several files.
 */
export async function addColumnsChecked(
  q: Query,
  graph: EntityGraph,
  entity: EntityDescription,
  value: Parameters<typeof addColumns>[1],
): Promise<{ ok: true; cols: Columns } | { ok: false; message: string }> {
  const cols: Columns = addColumns(entity, value);
  const missing = await missingParent(q, graph, entity, cols);
  if (missing) return { ok: false, message: missing };
  const disagreement = await parentDisagreement(q, graph, entity, cols);
  if (disagreement) return { ok: false, message: disagreement };
  await hashPasswords(entity, cols);
  return { ok: true, cols };
}

export function addHandler(entity: EntityDescription, graph: EntityGraph, options: WriteOptions): ApiHandler {
  const text = replyTexts(entity);
  const files = fileFields(entity, 'add');
  return async ({ q, body: sent, uploads, adminId, audit }) => {
    const body = await resolveRefCodes(q, graph, entity, 'add', sent);
    const checked = cleanRichTextFields(entity, 'add', validateWrite(entity, 'add', body));
    if (!checked.ok) return refuse(400, checked.message);
    const incoming = await checkFiles(files, 'add', body, lookupFor(adminId, options));
    if (!incoming.ok) return refuse(400, incoming.message);
    const columns = await addColumnsChecked(q, graph, entity, checked.value);
    if (!columns.ok) return refuse(400, columns.message);
    const { cols } = columns;

    for (const f of incoming.files) await storeFile(uploads, f, cols);
    const names = Object.keys(cols);
    const sql =
      names.length === 0
        ? `INSERT INTO ${ident(entity.table)} DEFAULT VALUES RETURNING *`
        : `INSERT INTO ${ident(entity.table)} (${names.map(ident).join(', ')})
           VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING *`;
    const [row] = await q(sql, Object.values(cols));
    audit.added(entity, row);
    const id = row[entity.key];
    // The legacy server sends no id; ours does, under `id` and under the key's own name.
    if (options.legacy) return ok({ message: text.added });
    return ok({ message: text.added, [NEW_ID_FIELD]: id, [entity.key]: id });
  };
}

export function updateHandler(
  entity: EntityDescription,
  graph: EntityGraph,
  endpoint: Endpoint,
  options: WriteOptions,
): ApiHandler {
  const text = replyTexts(entity);
  const files = fileFields(entity, 'update');
  const table = ident(entity.table);
  const key = ident(entity.key);
  const idParam = endpoint.idParam ?? entity.key;
  return async ({ q, query, body: sent, uploads, adminId, audit }) => {
    // Sections, units, chapters and schools carry the id only in the query string (api-contract §1).
    const rawId = endpoint.idIn === 'query' ? query[idParam] : sent[idParam];
    const read = readId(entity, rawId);
    if ('reply' in read) return read.reply;
    const body = await resolveRefCodes(q, graph, entity, 'update', sent);
    const checked = cleanRichTextFields(entity, 'update', validateWrite(entity, 'update', body));
    if (!checked.ok) return refuse(400, checked.message);
    const incoming = await checkFiles(files, 'update', body, lookupFor(adminId, options));
    if (!incoming.ok) return refuse(400, incoming.message);

    // Locked: the old file names stay valid until we commit, and a delete waits for us.
    const [current] = await q<Record<string, unknown>>(
      `SELECT * FROM ${table} WHERE ${key} = $1 FOR UPDATE`,
      [read.id],
    );
    if (!current) return notFound(entity);
    const cols = updateColumns(entity, body, checked.value);
    const missing = await missingParent(q, graph, entity, cols);
    if (missing) return refuse(400, missing);
    if (changesRefs(entity, current, cols)) {
      const disagreement = await parentDisagreement(q, graph, entity, { ...(current as Columns), ...cols });
      if (disagreement) return refuse(400, disagreement);
    }
    await hashPasswords(entity, cols);

    for (const f of incoming.files) {
      await storeFile(uploads, f, cols);
      const old = current[f.field];
      if (typeof old === 'string' && old !== '') uploads.dropOnSuccess(f.folder, old);
    }
    const names = Object.keys(cols);
    const renamed = entity.title in cols && cols[entity.title] !== current[entity.title];
    // A rename touches the rows that show the title, in the UPDATE's own statement.
    const touches = renamed ? childTouches(graph, entity, names.length + 2) : [];
    const [after] =
      names.length === 0
        ? [current]
        : await q(
            `${touches.length > 0 ? `WITH ${touches.join(', ')} ` : ''}UPDATE ${table}
             SET ${names.map((n, i) => `${ident(n)} = $${i + 2}`).join(', ')} WHERE ${key} = $1 RETURNING *`,
            [read.id, ...Object.values(cols), ...touches.map(() => read.id)],
          );
    audit.updated(entity, current, after);
    return ok({ message: text.updated });
  };
}
