/**
 * The endpoint table: for every entity the endpoints it has (list, get, add, update, delete,
 * field actions, field reads, set relations, cascade lookups), each with its path and the fixed
 * query parameters that tell it apart on a shared path, method, encoding, where the record id
 * travels and under which name, the request's wire fields, and the schema of a successful
 * reply; and the auth endpoints. The server mounts its routes from this table; the client
 * builds its requests (wire-request.ts) and checks replies with it. Neither spells a path itself.
 */
import * as v from 'valibot';
import { type EntityDescription, idParamOf, type Op, type Path, splitPath, wireFields } from './entity';
import {
  AUTH_PATHS,
  DELTA_COUNT_PARAM,
  DELTA_CURSOR_FIELD,
  DELTA_DELETED_FIELD,
  DELTA_LIMIT_PARAM,
  DELTA_MORE_FIELD,
  DELTA_PARAM,
  DELTA_REMAINING_FIELD,
  NEW_ID_FIELD,
} from './wire';

export type Encoding = 'query' | 'json' | 'multipart';

export interface Endpoint {
  path: string;
  /** Fixed query parameters that tell this endpoint apart from others on the same path. */
  query: Readonly<Record<string, string>>;
  method: 'GET' | 'POST';
  encoding: Encoding;
  /** Where the record id travels, under `idParam`. */
  idIn?: 'query' | 'body';
  idParam?: string;
  /** Wire names of the other request fields. */
  fields: readonly string[];
  /** A successful reply (success true). Extra fields are allowed: servers add their own. */
  reply: v.GenericSchema<unknown, Record<string, unknown>>;
}

/**
 * Every failure, whatever the endpoint (api-contract §1: `message`, or `error` on addlibrary).
 * Ours adds `field`, the description's name of the field at fault, where a database constraint
 * refused the write (server/api/constraint-refusal.ts).
 */
export const failureReply = v.looseObject({
  success: v.literal(false),
  message: v.optional(v.string()),
  error: v.optional(v.string()),
  field: v.optional(v.string()),
});

const idValue = v.union([v.string(), v.number()]);
const ok = { success: v.literal(true), message: v.optional(v.string()) };

export const LIST_QUERY = [
  'search',
  'page',
  'limit',
  'sortOption',
  DELTA_PARAM,
  DELTA_LIMIT_PARAM,
  DELTA_COUNT_PARAM,
] as const;

export interface EntityEndpoints {
  list?: Endpoint;
  get?: Endpoint;
  add?: Endpoint;
  update?: Endpoint;
  remove?: Endpoint;
  /** Single-field changes (`entity.actions`), JSON {id, wire: value}. */
  actions: Record<string, Endpoint>;
  /** Endpoints answering one field (`entity.api.reads`). */
  reads: Record<string, Endpoint>;
  /** Set relations (`entity.relations`): the set's read and its replacement. */
  relations: Record<string, { read: Endpoint; write: Endpoint }>;
  /** Cascade helpers (`entity.lookups`): rows whose columns equal the query parameters. */
  lookups: Endpoint[];
  /** Further endpoints answering like `get` (`entity.api.alsoGet`). */
  alsoGet: Endpoint[];
}

const wireNames = (entity: EntityDescription, op: Op) => wireFields(entity, op).map(([, s]) => s.wire);

function endpoint(at: Path, rest: Omit<Endpoint, 'path' | 'query'>): Endpoint {
  return { ...splitPath(at), ...rest };
}

const cache = new WeakMap<EntityDescription, EntityEndpoints>();

/** What an entity's endpoints share: the shape of its row, its id's parameter, its list's field. */
interface Shapes {
  row: v.GenericSchema;
  idParam: string;
  listField: string;
}

/** The endpoints of the records themselves: list, get (and its twins), add, update, remove. */
function recordEndpoints(
  entity: EntityDescription,
  { row, idParam, listField }: Shapes,
): Pick<EntityEndpoints, 'list' | 'get' | 'alsoGet' | 'add' | 'update' | 'remove'> {
  const { api } = entity;
  // A single document has no id on the wire.
  const byId = entity.single ? {} : { idParam };
  const getReply =
    api.getField === null || entity.single
      ? v.looseObject({ success: v.optional(v.literal(true)), message: v.optional(v.string()) })
      : v.looseObject({ ...ok, [api.getField ?? entity.name]: row });
  const getAt = (at: Path) =>
    endpoint(at, {
      method: 'GET',
      encoding: 'query',
      ...(entity.single ? {} : { idIn: 'query' as const, idParam }),
      fields: [],
      // A flat reply (getSchool.php) carries the columns at the top level, without `success`.
      reply: getReply,
    });
  return {
    list: api.list
      ? endpoint(api.list, {
          method: 'GET',
          encoding: 'query',
          fields: LIST_QUERY,
          reply: v.looseObject({
            ...ok,
            [listField]: v.array(row),
            total: v.optional(v.number()),
            [DELTA_CURSOR_FIELD]: v.optional(v.string()),
            [DELTA_DELETED_FIELD]: v.optional(v.array(idValue)),
            [DELTA_MORE_FIELD]: v.optional(v.boolean()),
            [DELTA_REMAINING_FIELD]: v.optional(v.number()),
          }),
        })
      : undefined,
    get: api.get ? getAt(api.get) : undefined,
    alsoGet: (api.alsoGet ?? []).map(getAt),
    add: api.add
      ? endpoint(api.add, {
          method: 'POST',
          encoding: api.encoding,
          fields: wireNames(entity, 'add'),
          reply: v.looseObject({
            ...ok,
            [NEW_ID_FIELD]: v.optional(idValue),
            [entity.key]: v.optional(idValue),
          }),
        })
      : undefined,
    update: api.update
      ? endpoint(api.update, {
          method: 'POST',
          encoding: api.encoding,
          ...(entity.single ? {} : { idIn: api.updateIdIn ?? 'body', idParam }),
          fields: wireNames(entity, 'update'),
          reply: v.looseObject(ok),
        })
      : undefined,
    remove: api.remove
      ? endpoint(api.remove, {
          method: 'POST',
          encoding: 'json',
          idIn: 'body',
          ...byId,
          fields: [],
          reply: v.looseObject(ok),
        })
      : undefined,
  };
}

/** The endpoints named in the description: actions, reads, set relations and lookups. */
function namedEndpoints(
  entity: EntityDescription,
  { row, idParam, listField }: Shapes,
): Pick<EntityEndpoints, 'actions' | 'reads' | 'relations' | 'lookups'> {
  const { api } = entity;
  return {
    actions: Object.fromEntries(
      Object.entries(entity.actions ?? {}).map(([name, action]) => [
        name,
        endpoint(action.path, {
          method: 'POST',
          encoding: 'json',
          idIn: 'body',
          idParam,
          fields: [action.wire],
          reply: v.looseObject(ok),
        }),
      ]),
    ),
    reads: Object.fromEntries(
      Object.entries(api.reads ?? {}).map(([name, read]) => [
        name,
        endpoint(read.path, {
          method: read.method,
          encoding: read.method === 'GET' ? 'query' : 'json',
          idIn: read.method === 'GET' ? 'query' : 'body',
          idParam,
          fields: [],
          reply: v.looseObject({ ...ok, [read.reply]: v.unknown() }),
        }),
      ]),
    ),
    relations: Object.fromEntries(
      Object.entries(entity.relations ?? {}).map(([name, rel]) => [
        name,
        {
          read: endpoint(rel.read.path, {
            method: rel.read.method,
            encoding: rel.read.method === 'GET' ? 'query' : 'json',
            idIn: rel.read.method === 'GET' ? 'query' : 'body',
            idParam,
            fields: [],
            reply: v.looseObject({ ...ok, [rel.read.reply]: v.array(idValue) }),
          }),
          write: endpoint(rel.write.path, {
            method: 'POST',
            encoding: 'json',
            idIn: 'body',
            idParam,
            fields: [rel.write.field],
            reply: v.looseObject(ok),
          }),
        },
      ]),
    ),
    lookups: (entity.lookups ?? []).map((lookup) =>
      endpoint(lookup.path, {
        method: 'GET',
        encoding: 'query',
        fields: lookup.params,
        reply: v.looseObject({ ...ok, [listField]: v.array(row) }),
      }),
    ),
  };
}

export function entityEndpoints(entity: EntityDescription): EntityEndpoints {
  const known = cache.get(entity);
  if (known) return known;
  const shapes: Shapes = {
    row: v.looseObject({ [entity.key]: idValue }),
    idParam: idParamOf(entity),
    listField: entity.api.listField ?? entity.table,
  };
  const built: EntityEndpoints = { ...recordEndpoints(entity, shapes), ...namedEndpoints(entity, shapes) };
  cache.set(entity, built);
  return built;
}

/** Every endpoint of an entity, for code that treats them alike (mounting, the batchable set). */
export function allEndpoints(entity: EntityDescription): Endpoint[] {
  const ep = entityEndpoints(entity);
  return [
    ep.list,
    ep.get,
    ep.add,
    ep.update,
    ep.remove,
    ...Object.values(ep.actions),
    ...Object.values(ep.reads),
    ...Object.values(ep.relations).flatMap((r) => [r.read, r.write]),
    ...ep.lookups,
    ...ep.alsoGet,
  ].filter((e): e is Endpoint => e !== undefined);
}

/** The rows of a list or lookup reply. */
export const listFieldOf = (entity: EntityDescription): string => entity.api.listField ?? entity.table;

export const authEndpoints = {
  login: {
    path: AUTH_PATHS.login,
    query: {},
    method: 'POST',
    encoding: 'json',
    fields: ['username', 'password'],
    reply: v.looseObject(ok),
  },
  logout: {
    path: AUTH_PATHS.logout,
    query: {},
    method: 'POST',
    encoding: 'json',
    fields: [],
    reply: v.looseObject(ok),
  },
} satisfies Record<string, Endpoint>;

/** The reply if it matches the endpoint's success schema, else null. */
export function parseReply(endpoint: Endpoint, body: unknown): Record<string, unknown> | null {
  const parsed = v.safeParse(endpoint.reply, body);
  return parsed.success ? parsed.output : null;
}

/** The record a get reply carries: wrapped under getField, or the reply itself when flat. */
export function rowOfGetReply(entity: EntityDescription, body: Record<string, unknown>): unknown {
  if (entity.api.getField === null || entity.single) return body;
  return body[entity.api.getField ?? entity.name];
}
