/**
 * Turns an outbox entry into the legacy request the entity's description names: path,
 * encoding, wire field names, and where the id goes. Temporary ids are replaced by the
 * server's here; `null` means a referenced record is not on the server yet.
 */
import { type Endpoint, entityEndpoints } from '../contract/endpoints';
import { type EntityDescription, wireFields } from '../contract/entity';
import type { FieldValue, OutboxEntry } from '../db/outbox-entry';
import type { RequestOptions } from './api';

export type IdResolver = (id: string) => string | null;

export interface BuiltRequest {
  path: string;
  options: RequestOptions;
}

function wireValue(v: FieldValue | undefined): string | number | Blob {
  if (v === null || v === undefined) return '';
  if (typeof v === 'boolean') return v ? 1 : 0;
  return v;
}

function encode(endpoint: Endpoint, body: Record<string, string | number | Blob>): Partial<RequestOptions> {
  if (endpoint.encoding === 'json') return { json: body };
  const form = new FormData();
  for (const [k, v] of Object.entries(body)) {
    if (v instanceof Blob) form.append(k, v, (v as File).name ?? k);
    else form.append(k, String(v));
  }
  return { form };
}

export function buildRequest(
  entity: EntityDescription,
  entry: OutboxEntry,
  resolve: IdResolver,
): BuiltRequest | null {
  const ep = entityEndpoints(entity);
  const id = resolve(entry.key);
  if (entry.op === 'delete') {
    if (id === null) return null;
    return { path: ep.remove.path, options: { method: 'POST', ...encode(ep.remove, { [entity.key]: id }) } };
  }

  const op = entry.op;
  // An edit sends the whole record as the administrator saw it, with the changes applied.
  const values = op === 'update' ? { ...entry.base, ...entry.payload } : entry.payload;
  const body: Record<string, string | number | Blob> = {};
  for (const [name, spec] of wireFields(entity, op)) {
    let v = values[name];
    if (spec.kind === 'ref' && typeof v === 'string' && v !== '') {
      const parent = resolve(v);
      if (parent === null) return null;
      v = parent;
    }
    body[spec.wire] = wireValue(v);
  }

  if (op === 'add') {
    return { path: ep.add.path, options: { method: 'POST', ...encode(ep.add, body) } };
  }
  if (id === null) return null;
  if (ep.update.idIn === 'query') {
    return {
      path: ep.update.path,
      options: { method: 'POST', query: { [entity.key]: id }, ...encode(ep.update, body) },
    };
  }
  return {
    path: ep.update.path,
    options: { method: 'POST', ...encode(ep.update, { [entity.key]: id, ...body }) },
  };
}

/** Every id an entry refers to: its own record and its parents (for ordering). */
export function referencedIds(entity: EntityDescription, entry: OutboxEntry): string[] {
  const ids = [`${entity.name}:${entry.key}`];
  for (const [name, spec] of Object.entries(entity.fields)) {
    const v = entry.payload[name] ?? entry.base?.[name];
    if (spec.kind === 'ref' && spec.ref && typeof v === 'string' && v !== '') ids.push(`${spec.ref}:${v}`);
  }
  return ids;
}
