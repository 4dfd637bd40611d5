/**
 * The one function that turns "do this to that record" into the legacy request the endpoint
 * table names: path and fixed query, encoding, wire field names per operation, where the id
 * goes and under which name, files, the text `null` where the original sends it. The client
 * builds every request it sends with it; tests and the server's batch items read the same
 * table. Values must already name parents by their server ids (src/sync resolves temporary ids).
 */
import { type Encoding, type Endpoint, entityEndpoints } from './endpoints';
import { type EntityDescription, type FieldSpec, type Op, wireFields } from './entity';

/** What a request body may carry: text, numbers, files, and lists of objects (assignments). */
export type WireValue = string | number | Blob | readonly Readonly<Record<string, string>>[];

export interface WireRequest {
  method: 'GET' | 'POST';
  path: string;
  query: Record<string, string>;
  encoding: Encoding;
  /** JSON or multipart fields; absent for GET. */
  body?: Record<string, WireValue>;
}

/** A value as the local store holds it. */
export type LocalValue = string | number | boolean | null | undefined | Blob;

export type Operation =
  | { op: 'list'; params?: Readonly<Record<string, string | number>> }
  | { op: 'get'; id?: string }
  | { op: 'add'; values: Readonly<Record<string, LocalValue>> }
  /** `values`: the whole record as it is to be, parents by server id. */
  | { op: 'update'; id?: string; values: Readonly<Record<string, LocalValue>> }
  | { op: 'remove'; id?: string }
  | { op: 'action'; action: string; id: string; value: LocalValue }
  | { op: 'read'; read: string; id: string }
  | { op: 'relation-read'; relation: string; id: string }
  | { op: 'relation-write'; relation: string; id: string; ids: readonly string[] };

export class UnknownOperation extends Error {}

function scalar(v: LocalValue): string | number {
  if (v === null || v === undefined) return '';
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v instanceof Blob) throw new UnknownOperation('A file where text was expected');
  return v;
}

/**
 * A file goes only when one was chosen (a Blob): a stored file name means "keep the current
 * one", which the legacy server reads from the field's absence. Add Chapter sends the text
 * `null` instead (api-contract §3.8).
 */
function fileValue(spec: FieldSpec, v: LocalValue, op: Op): WireValue | undefined {
  if (v instanceof Blob) return v;
  return op === 'add' && spec.file?.nullWhenEmptyOnAdd ? 'null' : undefined;
}

function writeBody(entity: EntityDescription, op: Op, values: Readonly<Record<string, LocalValue>>) {
  const body: Record<string, WireValue> = {};
  for (const [name, spec] of wireFields(entity, op)) {
    if (spec.kind === 'file') {
      const file = fileValue(spec, values[name], op);
      if (file !== undefined) body[spec.wire] = file;
    } else body[spec.wire] = scalar(values[name]);
  }
  return body;
}

function need<T>(endpoint: T | undefined, entity: EntityDescription, what: string): T {
  if (!endpoint) throw new UnknownOperation(`${entity.name} has no ${what} endpoint`);
  return endpoint;
}

/** The request skeleton of an endpoint, with the id where the endpoint wants it. */
function at(endpoint: Endpoint, id: string | undefined, body?: Record<string, WireValue>): WireRequest {
  const query: Record<string, string> = { ...endpoint.query };
  let withId = { ...body };
  if (endpoint.idParam && id !== undefined) {
    if (endpoint.idIn === 'query') query[endpoint.idParam] = id;
    // The id first, as the original writes its bodies.
    else withId = { [endpoint.idParam]: id, ...body };
  }
  const isGet = endpoint.method === 'GET';
  return {
    method: endpoint.method,
    path: endpoint.path,
    query,
    encoding: endpoint.encoding,
    ...(isGet ? {} : { body: withId }),
  };
}

export function wireRequest(entity: EntityDescription, operation: Operation): WireRequest {
  const ep = entityEndpoints(entity);
  switch (operation.op) {
    case 'list': {
      const list = at(need(ep.list, entity, 'list'), undefined);
      for (const [k, v] of Object.entries(operation.params ?? {})) list.query[k] = String(v);
      return list;
    }
    case 'get':
      return at(need(ep.get, entity, 'get'), operation.id);
    case 'add':
      return at(need(ep.add, entity, 'add'), undefined, writeBody(entity, 'add', operation.values));
    case 'update': {
      const update = need(ep.update, entity, 'update');
      return at(update, operation.id, writeBody(entity, 'update', operation.values));
    }
    case 'remove':
      return at(need(ep.remove, entity, 'delete'), operation.id, {});
    case 'action': {
      const spec = need(entity.actions?.[operation.action], entity, `${operation.action} action`);
      return at(ep.actions[operation.action], operation.id, { [spec.wire]: scalar(operation.value) });
    }
    case 'read':
      return at(need(ep.reads[operation.read], entity, `${operation.read} read`), operation.id, {});
    case 'relation-read':
      return at(need(ep.relations[operation.relation], entity, operation.relation).read, operation.id, {});
    case 'relation-write': {
      const rel = need(entity.relations?.[operation.relation], entity, operation.relation);
      const items = operation.ids.map((id) => ({ [rel.write.itemKey]: id }));
      return at(ep.relations[operation.relation].write, operation.id, { [rel.write.field]: items });
    }
  }
}

/** "GET path" or "POST path?type=insert": how a request is told apart, on both ends. */
export function routeKey(method: string, path: string, query: Readonly<Record<string, string>> = {}): string {
  const fixed = Object.entries(query)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  return `${method} ${path}${fixed ? `?${fixed}` : ''}`;
}
