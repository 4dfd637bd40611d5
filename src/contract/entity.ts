/**
 * The declarative description of one entity. One object per entity drives the server's
 * handlers, the local store's schema, pull, mutations, and the generic list and form screens.
 * Descriptions are plain data (no React, no DOM) so the server, the service worker and the
 * window all read the same thing.
 */

/** `url`: a link field, an absolute http or https URL (issue 12, stored content). */
export type FieldKind =
  | 'text'
  | 'richtext'
  | 'url'
  | 'number'
  | 'email'
  | 'password'
  | 'ref'
  | 'status'
  | 'file';

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
  /**
   * For kind 'ref' in a cascading form: the form fields whose values narrow this field's
   * options (spec §4 cascades). Changing one of them clears this field.
   */
  dependsOn?: readonly string[];
  /** For kind 'file'. */
  file?: FileRule;
  /** Multi-line plain text. */
  multiline?: boolean;
  /** Hint shown under the control (spec's upload hints). */
  hint?: string;
}

/** What an uploaded file may be; the server checks the real content, not the name. */
export interface FileRule {
  /** Upload folder under uploads/ (spec §7). */
  folder: string;
  /** Accepted kinds, by extension: jpg, jpeg, png, gif, pdf, mp3 ... */
  types: readonly string[];
  maxBytes: number;
  /** A different limit on update (chapter media: 10 MB on add, 2 MB on update). */
  maxBytesOnUpdate?: number;
  /** Add sends the text `null` when no file was chosen (api-contract: addchapters.php). */
  nullWhenEmptyOnAdd?: boolean;
  /** Hint on the update form, when it differs from the add form's. */
  hintOnUpdate?: string;
}

export interface ListColumn {
  /** The row's field; for a parent's name, the ref field's `refName`. */
  field: string;
  header: string;
  /** Several fields shown in one cell, e.g. 'Class / Subject / Series'. */
  also?: readonly string[];
  /** 'image': a thumbnail of a file field. */
  kind?: 'text' | 'image';
}

/**
 * A change of one field through its own endpoint, JSON {key: id, wire: value}: the popular
 * flag of books, the status of schools, teachers and students, a page number.
 */
export interface FieldAction {
  path: string;
  field: string;
  wire: string;
  /** Notices per new value, e.g. { Enabled: ['Book enabled successfully', 'Failed to enable Book'] }. */
  messages: Readonly<Record<string, readonly [success: string, failure: string]>>;
}

/**
 * A list filter the server accepts on the list endpoint (`fetchseries.php?subject_id=`).
 * `via` names a child entity that links the two when the row has no such column: subjects
 * belong to a class through a series that has both.
 */
export interface ListFilter {
  param: string;
  via?: string;
}

/** A cascade helper: the entity's rows whose columns equal the given parameters. */
export interface Lookup {
  path: string;
  params: readonly string[];
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
  /** Units sort with sortColumn/sortOrder; the other lists send sortOption. */
  sortParams?: 'sortOption' | 'sortColumn';
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
    /** Headers sort the list, toggling asc/desc (Units). */
    sortable?: boolean;
    /** Fields the search box matches (case-insensitive substring). */
    search: readonly string[];
    /** Default order of rows. */
    sort: { field: string; dir: 'asc' | 'desc' };
    pageSize: number;
  };
  /** The field that names a record: dropdown labels, parents' names in children's lists. */
  title: string;
  /** Form fields in the order the spec lists them. */
  form: readonly string[];
  /** The update form's fields when they differ from the add form's. */
  updateForm?: readonly string[];
  /** Forms whose selects cascade (`dependsOn`); elsewhere every select lists every row. */
  cascadeIn?: readonly Op[];
  /** One message for any missing required field (Add Chapter's script check). */
  requiredMessage?: string;
  /** Sentence for the delete confirmation; absent means no confirmation (as the spec has it). */
  confirmDelete?: string;
  /** Single-field changes with their own endpoint. */
  actions?: Readonly<Record<string, FieldAction>>;
  /** Filters the list endpoint accepts. */
  filters?: readonly ListFilter[];
  /** Cascade helper endpoints that list this entity's rows. */
  lookups?: readonly Lookup[];
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

export function formFields(entity: EntityDescription, op: Op): readonly string[] {
  return op === 'update' ? (entity.updateForm ?? entity.form) : entity.form;
}

/** Fields that reference a parent entity. */
export function refFields(entity: EntityDescription): [string, FieldSpec & { ref: string }][] {
  return Object.entries(entity.fields).filter(([, s]) => s.kind === 'ref' && s.ref) as [
    string,
    FieldSpec & { ref: string },
  ][];
}
