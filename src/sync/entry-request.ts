/**
 * An outbox entry as the request it stands for. Entries keep the ids they were made with,
 * temporary ones included; here every id is replaced by the server's, and an entry whose own
 * record or a parent it names has no server id yet cannot go (rule 3). The request itself is
 * built by the contract's one request builder (wire-request.ts).
 */
import { contentImageEntity, entityByName } from '../contract/entities';
import type { EntityDescription } from '../contract/entity';
import {
  contentImageRefs,
  contentImageUrl,
  withContentImageUrls,
} from '../contract/rich-text/rich-text-images';
import { type LocalValue, type WireRequest, wireRequest } from '../contract/wire-request';
import type { FieldValue, OutboxEntry } from '../db/outbox/outbox-entry';

export type IdResolver = (id: string) => string | null;

/** A record an entry touches: its own, or a parent it names. */
export interface RecordRef {
  entity: string;
  id: string;
}

/** What an entry sends: its record's server id and its values, parents by server id. */
export interface ResolvedEntry {
  id: string;
  values: Record<string, FieldValue>;
}

/**
 * The URL of a content image by its temporary id, once the server named it (its name is its
 * id: contract/entities/content-image.ts). `apiRoot` is the API client's; without one (the
 * plan, which only asks whether an entry can go) the URL is relative to the API root.
 */
export const contentImageUrlOf =
  (resolve: IdResolver, apiRoot = '') =>
  (id: string): string | null => {
    const name = resolve(id);
    return name === null || name === id ? null : contentImageUrl(apiRoot, name);
  };

/**
 * The entry with every id replaced by the server's, or null while one has none yet. An add
 * needs only its parents; everything else needs its own record too. Images its rich text
 * waits for count like parents, and get their server URL (contract/rich-text/rich-text-images.ts).
 */
export function resolveEntry(
  entity: EntityDescription,
  entry: OutboxEntry,
  resolve: IdResolver,
  apiRoot?: string,
): ResolvedEntry | null {
  const id = resolve(entry.key);
  if (id === null && entry.op !== 'add') return null;
  if (entry.op === 'delete' || entry.op === 'set') return { id: id ?? entry.key, values: entry.payload };
  if (entry.op === 'relate') {
    // Every id of the set by its server id: a book added offline goes first.
    const relation = entry.relation ?? '';
    const set = resolveSet(entry.payload[relation], resolve);
    return set && { id: id ?? entry.key, values: { [relation]: set } };
  }
  // An edit sends the whole record as the administrator saw it, with the changes applied.
  const values = entry.op === 'update' ? { ...entry.base, ...entry.payload } : { ...entry.payload };
  for (const [name, spec] of Object.entries(entity.fields)) {
    const v = values[name];
    if (spec.kind !== 'ref' || typeof v !== 'string' || v === '') continue;
    const parent = resolve(v);
    if (parent === null) return null;
    values[name] = parent;
  }
  const withImages = withContentImageUrls(entity, values, contentImageUrlOf(resolve, apiRoot), true);
  return withImages && { id: id ?? entry.key, values: withImages };
}

/**
 * The request of an entry, or null while an id it needs is still temporary. `apiRoot` (the
 * API client's) makes the URLs of images in rich text.
 */
export function entryRequest(entry: OutboxEntry, resolve: IdResolver, apiRoot?: string): WireRequest | null {
  const entity = entityByName(entry.entity);
  const resolved = resolveEntry(entity, entry, resolve, apiRoot);
  if (!resolved) return null;
  const { id, values } = resolved;
  switch (entry.op) {
    case 'add':
      return wireRequest(entity, { op: 'add', values: values as Record<string, LocalValue> });
    case 'update':
      return wireRequest(entity, { op: 'update', id, values: values as Record<string, LocalValue> });
    case 'delete':
      return wireRequest(entity, { op: 'remove', id });
    case 'set': {
      const action = entity.actions?.[entry.action ?? ''];
      if (!action) return null;
      return wireRequest(entity, {
        op: 'action',
        action: entry.action!,
        id,
        value: values[action.field] as LocalValue,
      });
    }
    case 'relate': {
      const relation = entry.relation ?? '';
      if (!entity.relations?.[relation]) return null;
      return wireRequest(entity, { op: 'relation-write', relation, id, ids: values[relation] as string[] });
    }
  }
}

/** A set of ids with each one's server id, or null while one has none yet. */
export function resolveSet(value: unknown, resolve: IdResolver): string[] | null {
  const out: string[] = [];
  for (const id of Array.isArray(value) ? (value as string[]) : []) {
    const server = resolve(id);
    if (server === null) return null;
    out.push(server);
  }
  return out;
}

/**
 * The values with every parent named by its server id where one is known, and every image of
 * their rich text that the server has pointed at its URL (`apiRoot`, the API client's).
 */
export function resolveRefs(
  entity: EntityDescription,
  values: Record<string, FieldValue>,
  resolve: IdResolver,
  apiRoot?: string,
): Record<string, FieldValue> {
  const out = { ...values };
  for (const [name, spec] of Object.entries(entity.fields)) {
    const v = out[name];
    if (spec.kind === 'ref' && typeof v === 'string' && v !== '') out[name] = resolve(v) ?? v;
  }
  return withContentImageUrls(entity, out, contentImageUrlOf(resolve, apiRoot), false) ?? out;
}

/**
 * Every record an entry touches: its own first, then its parents (for ordering, rule 3), among
 * them the images its rich text waits for.
 */
export function referencedRecords(entity: EntityDescription, entry: OutboxEntry): RecordRef[] {
  const refs: RecordRef[] = [{ entity: entity.name, id: entry.key }];
  if (entry.op === 'add' || entry.op === 'update')
    for (const id of contentImageRefs(entity, { ...entry.base, ...entry.payload }))
      refs.push({ entity: contentImageEntity.name, id });
  if (entry.op === 'set') return refs;
  if (entry.op === 'relate') {
    // The set's records: a book added or deleted offline is sent before (after) its assignment.
    const rel = entity.relations?.[entry.relation ?? ''];
    if (!rel) return refs;
    for (const v of [entry.payload[entry.relation!], entry.base?.[entry.relation!]])
      for (const id of Array.isArray(v) ? (v as string[]) : [])
        if (!refs.some((r) => r.entity === rel.target && r.id === id)) refs.push({ entity: rel.target, id });
    return refs;
  }
  for (const [name, spec] of Object.entries(entity.fields)) {
    if (spec.kind !== 'ref' || !spec.ref) continue;
    // Both the new parent and the old one: moving a series to another class must reach the
    // server before a later delete of the class it left. A delete holds its parents too, so
    // deleting a book and then its series reaches the server in that order.
    for (const v of [entry.payload[name], entry.base?.[name]]) {
      if (typeof v === 'string' && v !== '' && !refs.some((r) => r.entity === spec.ref && r.id === v))
        refs.push({ entity: spec.ref, id: v });
    }
  }
  return refs;
}
