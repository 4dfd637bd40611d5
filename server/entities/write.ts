/**
 * Add, update and delete, driven by the entity description: wire names and validation come
 * from validateWrite, column names are the description's field names. Each runs inside the
 * request's transaction (server/http/write.ts) through c.var.q, and validates everything
 * before its one write, so a refused request writes nothing.
 */
import type { Handler } from 'hono';
import type { Endpoint } from '../../src/contract/endpoints';
import type { EntityDescription } from '../../src/contract/entity';
import { wireFields } from '../../src/contract/entity';
import { messages } from '../../src/contract/messages';
import { validateWrite, type WireBody } from '../../src/contract/validation';
import { NEW_ID_FIELD } from '../../src/contract/wire';
import type { AppEnv } from '../http/env';
import { fail } from '../http/reply';
import { notFound, readId } from './ids';
import { ident } from './sql';

type Columns = Record<string, string | number | null>;

/** Add: absent optional fields are left out, so the table's defaults apply. */
function addColumns(entity: EntityDescription, value: Columns): Columns {
  const out: Columns = {};
  for (const [name, spec] of wireFields(entity, 'add'))
    if (value[spec.wire] !== null) out[name] = value[spec.wire];
  return out;
}

/**
 * Update: a field left out of the body keeps its stored value (the legacy client sends only
 * what its form has, e.g. no sortOrder on some screens). A field sent empty keeps its value
 * too when it is a password or a file (an empty password or no new file means "unchanged"),
 * and otherwise goes back to its initial value, so an optional text can be cleared.
 * Required fields never get here empty: validateWrite refuses them.
 */
function updateColumns(entity: EntityDescription, body: WireBody, value: Columns): Columns {
  const out: Columns = {};
  for (const [name, spec] of wireFields(entity, 'update')) {
    if (!(spec.wire in body)) continue;
    const v = value[spec.wire];
    if (v === null && (spec.kind === 'password' || spec.kind === 'file')) continue;
    out[name] = v ?? spec.initial ?? null;
  }
  return out;
}

export function addHandler(entity: EntityDescription, options: { legacy: boolean }): Handler<AppEnv> {
  const text = messages(entity.names);
  return async (c) => {
    const checked = validateWrite(entity, 'add', c.var.body);
    if (!checked.ok) return fail(c, 400, checked.message);
    const cols = addColumns(entity, checked.value);
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

export function updateHandler(entity: EntityDescription, endpoint: Endpoint): Handler<AppEnv> {
  const text = messages(entity.names);
  return async (c) => {
    const body = c.var.body;
    // Sections, units, chapters and schools carry the id only in the query string (api-contract §1).
    const rawId = endpoint.idIn === 'query' ? c.req.query(entity.key) : body[entity.key];
    const read = readId(c, entity, rawId);
    if ('reply' in read) return read.reply;
    const checked = validateWrite(entity, 'update', body);
    if (!checked.ok) return fail(c, 400, checked.message);

    const cols = updateColumns(entity, body, checked.value);
    const names = Object.keys(cols);
    const key = ident(entity.key);
    // Nothing to change still has to tell a known id from an unknown one.
    const sql =
      names.length === 0
        ? `SELECT ${key} FROM ${ident(entity.table)} WHERE ${key} = $1`
        : `UPDATE ${ident(entity.table)} SET ${names.map((n, i) => `${ident(n)} = $${i + 2}`).join(', ')}
           WHERE ${key} = $1 RETURNING ${key}`;
    const rows = await c.var.q(sql, [read.id, ...Object.values(cols)]);
    if (rows.length === 0) return notFound(c, entity);
    return c.json({ success: true, message: text.updated });
  };
}

export function deleteHandler(entity: EntityDescription): Handler<AppEnv> {
  const text = messages(entity.names);
  const key = ident(entity.key);
  const sql = `DELETE FROM ${ident(entity.table)} WHERE ${key} = $1 RETURNING ${key}`;
  return async (c) => {
    // Deletes are always JSON with the id under the key's name (api-contract §3).
    const read = readId(c, entity, c.var.body[entity.key]);
    if ('reply' in read) return read.reply;
    const rows = await c.var.q(sql, [read.id]);
    if (rows.length === 0) return notFound(c, entity);
    return c.json({ success: true, message: text.deleted });
  };
}
