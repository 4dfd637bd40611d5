/**
 * The declarative description of one entity. One object per entity drives the server's
 * handlers, the local store's schema, pull, mutations, and the generic list and form screens.
 * Descriptions are plain data (no React, no DOM) so the server, the service worker and the
 * window all read the same thing.
 */

export type FieldKind = 'text' | 'richtext' | 'number' | 'email' | 'password' | 'ref' | 'status' | 'file';

export type Op = 'add' | 'update';

export interface FieldSpec {
  kind: FieldKind;
  /** Label in forms; also the control's accessible name. */
  label: string;
  /** Rejected (client and server) when empty. */
  required?: boolean;
  /** Name of the field on the wire (request body). Absent: never sent. */
  wire?: string;
  /** Which requests carry it; default both add and update. */
  sentOn?: readonly Op[];
  /** For kind 'ref': the parent entity's name. */
  ref?: string;
  /** For kind 'ref': the column that carries the parent's display name in list replies. */
  refName?: string;
  /** Longest accepted text. */
  maxLength?: number;
  /** Value a new record gets when the form leaves it out. */
  initial?: string | number;
}

export interface ListColumn {
  field: string;
  header: string;
}

export interface EntityNames {
  /** Lower-case singular, as in 'Failed to add class'. */
  one: string;
  /** Capitalised singular, as in 'Class added successfully'. */
  One: string;
  /** Lower-case plural, as in 'No classes found.' */
  many: string;
  /** Capitalised plural, as in 'Manage Classes'. */
  Many: string;
}

export interface EntityApi {
  /** List endpoint; the reply carries rows in `listField` plus `total`. */
  list: string;
  listField: string;
  /** Get-one endpoint; the id goes in the query string; the reply wraps the row in `getField`. */
  get: string;
  getField: string;
  add: string;
  update: string;
  /** Where update puts the record id: in the body (JSON or multipart) or only in the query string. */
  updateIdIn: 'body' | 'query';
  remove: string;
  /** Request encoding of add and update. Deletes are always JSON. */
  encoding: 'json' | 'multipart';
}

export interface EntityRoutes {
  list: string;
  add: string;
  /** Edit route prefix; the Base64-encoded id follows it. */
  edit: string;
}

export interface EntityDescription {
  /** Stable name: outbox entries and local tables refer to it. */
  name: string;
  /** Local table and server table. */
  table: string;
  /** Primary key column as the server names it. */
  key: string;
  names: EntityNames;
  fields: Readonly<Record<string, FieldSpec>>;
  api: EntityApi;
  routes: EntityRoutes;
  list: {
    columns: readonly ListColumn[];
    /** Fields the search box matches (case-insensitive substring). */
    search: readonly string[];
    /** Default order of rows. */
    sort: { field: string; dir: 'asc' | 'desc' };
    pageSize: number;
  };
  /** Form fields in the order the spec lists them. */
  form: readonly string[];
  /** Sentence for the delete confirmation; absent means no confirmation (as the spec has it). */
  confirmDelete?: string;
}

/** Identity helper that keeps literal types while checking the shape. */
export function defineEntity<const E extends EntityDescription>(entity: E): E {
  return entity;
}

/** Fields that are sent on the wire for an operation, in form order. */
export function wireFields(entity: EntityDescription, op: Op): [string, FieldSpec & { wire: string }][] {
  const out: [string, FieldSpec & { wire: string }][] = [];
  for (const [name, spec] of Object.entries(entity.fields)) {
    if (!spec.wire) continue;
    if (spec.sentOn && !spec.sentOn.includes(op)) continue;
    out.push([name, spec as FieldSpec & { wire: string }]);
  }
  return out;
}

/** Fields that reference a parent entity. */
export function refFields(entity: EntityDescription): [string, FieldSpec & { ref: string }][] {
  return Object.entries(entity.fields).filter(([, s]) => s.kind === 'ref' && s.ref) as [
    string,
    FieldSpec & { ref: string },
  ][];
}
