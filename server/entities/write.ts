/**
 * Add and update, driven by the entity description: wire names and validation come from
 * validateWrite, files from files.ts, column names are the description's field names. Each
 * runs inside the request's transaction (server/http/write.ts) through c.var.q and checks
 * everything (fields, files, parents, the row itself) before it stores a file or writes a
 * row, so a refused request writes nothing.
 */
import type { Context, Handler } from 'hono';
import type { Endpoint } from '../../src/contract/endpoints';
import type { EntityDescription } from '../../src/contract/entity';
import { messages } from '../../src/contract/messages';
import { validateWrite } from '../../src/contract/validation';
import { NEW_ID_FIELD } from '../../src/contract/wire';
import type { AppEnv } from '../http/env';
import { fail } from '../http/reply';
import type { ResumableUploads } from '../uploads/resumable';
import { addColumns, type Columns, updateColumns } from './columns';
import { checkFiles, fileFields, type UploadLookup } from './files';
import type { EntityGraph } from './graph';
import { notFound, readId } from './ids';
import { missingParent, touchChildren } from './relations';
import { ident } from './sql';

export interface WriteOptions {
  legacy: boolean;
  /** Finished resumable uploads a file field may name (none in legacy mode). */
  resumable?: ResumableUploads;
}

/** The uploads this request's administrator may name. */
const lookupFor = (c: Context<AppEnv>, { resumable }: WriteOptions): UploadLookup | undefined =>
  resumable && ((reference) => resumable.finished(c.var.adminId, reference));

export function addHandler(
  entity: EntityDescription,
  graph: EntityGraph,
  options: WriteOptions,
): Handler<AppEnv> {
  const text = messages(entity.names);
  const files = fileFields(entity, 'add');
  return async (c) => {
    const checked = validateWrite(entity, 'add', c.var.body);
    if (!checked.ok) return fail(c, 400, checked.message);
    const incoming = await checkFiles(files, 'add', c.var.body, lookupFor(c, options));
    if (!incoming.ok) return fail(c, 400, incoming.message);
    const cols: Columns = addColumns(entity, checked.value);
    const missing = await missingParent(c.var.q, graph, entity, cols);
    if (missing) return fail(c, 400, missing);

    for (const f of incoming.files) cols[f.field] = await c.var.uploads.save(f.folder, f.data, f.ext);
    const names = Object.keys(cols);
    const sql =
      names.length === 0
        ? `INSERT INTO ${ident(entity.table)} DEFAULT VALUES RETURNING ${ident(entity.key)} AS id`
        : `INSERT INTO ${ident(entity.table)} (${names.map(ident).join(', ')})
           VALUES (${names.map((_, i) => `$${i + 1}`).join(', ')}) RETURNING ${ident(entity.key)} AS id`;
    const [{ id }] = await c.var.q<{ id: number }>(sql, Object.values(cols));
    // The legacy server sends no id; ours does, under `id` and under the key's own name.
    if (options.legacy) return c.json({ success: true, message: text.added });
    return c.json({ success: true, message: text.added, [NEW_ID_FIELD]: id, [entity.key]: id });
  };
}

export function updateHandler(
  entity: EntityDescription,
  graph: EntityGraph,
  endpoint: Endpoint,
  options: WriteOptions,
): Handler<AppEnv> {
  const text = messages(entity.names);
  const files = fileFields(entity, 'update');
  const table = ident(entity.table);
  const key = ident(entity.key);
  return async (c) => {
    const { body, q } = c.var;
    // Sections, units, chapters and schools carry the id only in the query string (api-contract §1).
    const rawId = endpoint.idIn === 'query' ? c.req.query(entity.key) : body[entity.key];
    const read = readId(c, entity, rawId);
    if ('reply' in read) return read.reply;
    const checked = validateWrite(entity, 'update', body);
    if (!checked.ok) return fail(c, 400, checked.message);
    const incoming = await checkFiles(files, 'update', body, lookupFor(c, options));
    if (!incoming.ok) return fail(c, 400, incoming.message);

    // Locked: the old file names stay valid until we commit, and a delete waits for us.
    const [current] = await q<Record<string, unknown>>(
      `SELECT * FROM ${table} WHERE ${key} = $1 FOR UPDATE`,
      [read.id],
    );
    if (!current) return notFound(c, entity);
    const cols = updateColumns(entity, body, checked.value);
    const missing = await missingParent(q, graph, entity, cols);
    if (missing) return fail(c, 400, missing);

    for (const f of incoming.files) {
      cols[f.field] = await c.var.uploads.save(f.folder, f.data, f.ext);
      const old = current[f.field];
      if (typeof old === 'string' && old !== '') c.var.uploads.dropOnSuccess(f.folder, old);
    }
    const names = Object.keys(cols);
    if (names.length > 0) {
      await q(
        `UPDATE ${table} SET ${names.map((n, i) => `${ident(n)} = $${i + 2}`).join(', ')} WHERE ${key} = $1`,
        [read.id, ...Object.values(cols)],
      );
    }
    if (entity.title in cols && cols[entity.title] !== current[entity.title])
      await touchChildren(q, graph, entity, read.id);
    return c.json({ success: true, message: text.updated });
  };
}
