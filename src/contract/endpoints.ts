/**
 * The endpoint table: for every entity its five legacy endpoints, with path, method,
 * encoding, where the record id travels, the request's wire fields and the schema of a
 * successful reply; and the auth endpoints. The server mounts its routes from this table;
 * the client builds its requests and checks replies with it. Neither spells a path itself.
 */
import * as v from 'valibot';
import { type EntityDescription, type Op, wireFields } from './entity';
import { AUTH_PATHS, DELTA_CURSOR_FIELD, DELTA_DELETED_FIELD, DELTA_PARAM, NEW_ID_FIELD } from './wire';

export type Encoding = 'query' | 'json' | 'multipart';

export interface Endpoint {
  path: string;
  method: 'GET' | 'POST';
  encoding: Encoding;
  /** Where the record id travels, under the entity's key name. */
  idIn?: 'query' | 'body';
  /** Wire names of the other request fields. */
  fields: readonly string[];
  /** A successful reply (success true). Extra fields are allowed: servers add their own. */
  reply: v.GenericSchema<unknown, Record<string, unknown>>;
}

/** Every failure, whatever the endpoint (api-contract §1: `message`, or `error` on addlibrary). */
export const failureReply = v.looseObject({
  success: v.literal(false),
  message: v.optional(v.string()),
  error: v.optional(v.string()),
});

const idValue = v.union([v.string(), v.number()]);
const ok = { success: v.literal(true), message: v.optional(v.string()) };

export const LIST_QUERY = ['search', 'page', 'limit', 'sortOption', DELTA_PARAM] as const;

export interface EntityEndpoints {
  list: Endpoint;
  get: Endpoint;
  add: Endpoint;
  update: Endpoint;
  remove: Endpoint;
  /** Single-field changes (`entity.actions`), JSON {key: id, wire: value}. */
  actions: Record<string, Endpoint>;
  /** Cascade helpers (`entity.lookups`): rows whose columns equal the query parameters. */
  lookups: Endpoint[];
}

const wireNames = (entity: EntityDescription, op: Op) => wireFields(entity, op).map(([, s]) => s.wire);

export function entityEndpoints(entity: EntityDescription): EntityEndpoints {
  const row = v.looseObject({ [entity.key]: idValue });
  const { api } = entity;
  return {
    list: {
      path: api.list,
      method: 'GET',
      encoding: 'query',
      fields: LIST_QUERY,
      reply: v.looseObject({
        ...ok,
        [api.listField]: v.array(row),
        total: v.optional(v.number()),
        [DELTA_CURSOR_FIELD]: v.optional(v.string()),
        [DELTA_DELETED_FIELD]: v.optional(v.array(idValue)),
      }),
    },
    get: {
      path: api.get,
      method: 'GET',
      encoding: 'query',
      idIn: 'query',
      fields: [],
      reply: v.looseObject({ ...ok, [api.getField]: row }),
    },
    add: {
      path: api.add,
      method: 'POST',
      encoding: api.encoding,
      fields: wireNames(entity, 'add'),
      reply: v.looseObject({ ...ok, [NEW_ID_FIELD]: v.optional(idValue), [entity.key]: v.optional(idValue) }),
    },
    update: {
      path: api.update,
      method: 'POST',
      encoding: api.encoding,
      idIn: api.updateIdIn,
      fields: wireNames(entity, 'update'),
      reply: v.looseObject(ok),
    },
    remove: {
      path: api.remove,
      method: 'POST',
      encoding: 'json',
      idIn: 'body',
      fields: [],
      reply: v.looseObject(ok),
    },
    actions: Object.fromEntries(
      Object.entries(entity.actions ?? {}).map(([name, action]) => [
        name,
        {
          path: action.path,
          method: 'POST',
          encoding: 'json',
          idIn: 'body',
          fields: [action.wire],
          reply: v.looseObject(ok),
        } satisfies Endpoint,
      ]),
    ),
    lookups: (entity.lookups ?? []).map((lookup) => ({
      path: lookup.path,
      method: 'GET',
      encoding: 'query',
      fields: lookup.params,
      reply: v.looseObject({ ...ok, [api.listField]: v.array(row) }),
    })),
  };
}

export const authEndpoints = {
  login: {
    path: AUTH_PATHS.login,
    method: 'POST',
    encoding: 'json',
    fields: ['username', 'password'],
    reply: v.looseObject(ok),
  },
  logout: { path: AUTH_PATHS.logout, method: 'POST', encoding: 'json', fields: [], reply: v.looseObject(ok) },
} satisfies Record<string, Endpoint>;

/** The reply if it matches the endpoint's success schema, else null. */
export function parseReply(endpoint: Endpoint, body: unknown): Record<string, unknown> | null {
  const parsed = v.safeParse(endpoint.reply, body);
  return parsed.success ? parsed.output : null;
}
