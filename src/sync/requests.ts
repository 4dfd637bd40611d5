/**
 * Turns an outbox entry into the legacy request the endpoint table names: path, encoding,
 * wire field names, and where the id goes. Temporary ids are replaced by the server's here;
 * `null` means a referenced record is not on the server yet.
 */
import { type Endpoint, entityEndpoints } from '../contract/endpoints';
import { type EntityDescription, type FieldSpec, wireFields } from '../contract/entity';
import type { FieldValue, OutboxEntry } from '../db/outbox-entry';
import type { RequestOptions } from './api';

export type IdResolver = (id: string) => string | null;

export interface BuiltRequest {
  path: string;
  options: RequestOptions;
}

type WireValue = string | number | Blob;

function wireValue(v: FieldValue | undefined): WireValue {
  if (v === null || v === undefined) return '';
  if (typeof v === 'boolean') return v ? 1 : 0;
  return v;
}

/**
 * A file goes only when one was chosen (a Blob): a stored file name means "keep the current
 * one", which the legacy server reads from the field's absence. Add Chapter sends the text
 * `null` instead (api-contract §3.8).
 */
function fileValue(spec: FieldSpec, v: FieldValue | undefined, op: 'add' | 'update'): WireValue | undefined {
  if (v instanceof Blob) return v;
  return op === 'add' && spec.file?.nullWhenEmptyOnAdd ? 'null' : undefined;
}

const EXTENSION: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'application/pdf': 'pdf',
  'audio/mpeg': 'mp3',
};

/**
 * The chosen file's own name; a Blob that lost it (some IndexedDB implementations store a
 * File as a plain Blob) gets the field's name with the extension of its type, which is what
 * a server deriving the extension from the name needs.
 */
function fileName(blob: Blob, field: string): string {
  const name = (blob as File).name;
  if (name) return name;
  const ext = EXTENSION[blob.type];
  return ext ? `${field}.${ext}` : field;
}

function encode(endpoint: Endpoint, body: Record<string, WireValue>): Partial<RequestOptions> {
  if (endpoint.encoding === 'json') return { json: body };
  const form = new FormData();
  for (const [k, v] of Object.entries(body)) {
    if (v instanceof Blob) form.append(k, v, fileName(v, k));
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
  if (entry.op === 'set') {
    const action = ep.actions[entry.action ?? ''];
    if (id === null || !action) return null;
    const spec = entity.actions![entry.action!];
    const body = { [entity.key]: id, [spec.wire]: wireValue(entry.payload[spec.field]) };
    return { path: action.path, options: { method: 'POST', ...encode(action, body) } };
  }

  const op = entry.op;
  // An edit sends the whole record as the administrator saw it, with the changes applied.
  const values = op === 'update' ? { ...entry.base, ...entry.payload } : entry.payload;
  const body: Record<string, WireValue> = {};
  for (const [name, spec] of wireFields(entity, op)) {
    let v = values[name];
    if (spec.kind === 'file') {
      const file = fileValue(spec, v, op);
      if (file !== undefined) body[spec.wire] = file;
      continue;
    }
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

/** The values with every parent named by its server id where one is known. */
export function resolveRefs(
  entity: EntityDescription,
  values: Record<string, FieldValue>,
  resolve: IdResolver,
): Record<string, FieldValue> {
  const out = { ...values };
  for (const [name, spec] of Object.entries(entity.fields)) {
    const v = out[name];
    if (spec.kind === 'ref' && typeof v === 'string' && v !== '') out[name] = resolve(v) ?? v;
  }
  return out;
}

/** Every record an entry refers to, as 'entity:id': its own and its parents (for ordering). */
export function referencedIds(entity: EntityDescription, entry: OutboxEntry): string[] {
  const ids = [`${entity.name}:${entry.key}`];
  if (entry.op === 'set') return ids;
  for (const [name, spec] of Object.entries(entity.fields)) {
    if (spec.kind !== 'ref' || !spec.ref) continue;
    // Both the new parent and the old one: moving a series to another class must reach the
    // server before a later delete of the class it left. A delete holds its parents too, so
    // deleting a book and then its series reaches the server in that order.
    for (const v of [entry.payload[name], entry.base?.[name]]) {
      if (typeof v === 'string' && v !== '' && !ids.includes(`${spec.ref}:${v}`))
        ids.push(`${spec.ref}:${v}`);
    }
  }
  return ids;
}
