/**
 * The declarative description of one entity. One object per entity drives the server's
 * handlers, the local store's schema, pull, mutations, and the generic list and form screens.
 * Descriptions are plain data (no React, no DOM) so the server, the service worker and the
 * window all read the same thing.
 *
 * The legacy API is irregular, and the irregularities are data here, not special cases in
 * code: a path told apart by a query parameter (`index.php?type=insert`), wire names that
 * differ per operation, an id parameter named unlike the key (`type_id` for `id`), a get reply
 * that is flat instead of wrapped, operations an entity does not have, endpoints answering one
 * field, single documents without ids, sets of ids with their own endpoints (assignments), and
 * the screens' own texts and columns.
 */

import type { MenuEntry } from './menu-entry';

/** `url`: a link field, an absolute http or https URL (issue 12, stored content). */
export type FieldKind =
  | 'text'
  | 'richtext'
  | 'number'
  | 'email'
  | 'password'
  | 'ref'
  | 'status'
  | 'file'
  /** One of fixed codes with names (resource entry types 1-6, question types). */
  | 'choice'
  | 'url'
  | 'date'
  /** A contact number: digits, an optional leading +, spaces or dashes (5-20 digits). */
  | 'phone';

export type Op = 'add' | 'update';

/** A fixed code and its name, e.g. { value: '1', label: 'Link' }. Codes travel as text or numbers. */
export interface Choice {
  value: string;
  label: string;
}

export interface FieldSpec {
  kind: FieldKind;
  /** Label in forms; also the control's accessible name. */
  label: string;
  /** Rejected (client and server) when empty. */
  required?: boolean;
  /**
   * Name of the field on the wire: one name for add and update, or a name per operation
   * (resource types send `typeTitle` on insert and `resourceTitle` on update). An operation
   * without a name does not send the field; absent altogether: never sent.
   */
  wire?: string | Readonly<Partial<Record<Op, string>>>;
  /** For kind 'ref': the parent entity's name. */
  ref?: string;
  /** For kind 'ref': the column that carries the parent's display name in list replies. */
  refName?: string;
  /** For kind 'choice': the codes accepted, in the order forms offer them. */
  choices?: readonly Choice[];
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
  /**
   * A select of another entity's records that sends the record's NAME, not its id (Add
   * Student's class: `className` carries a class name, api-contract §3.11).
   */
  namesOf?: string;
  /**
   * One level of a location (spec §4: choosing a country loads its states, a state its cities).
   * Records keep the legacy values: the country's ISO2 code, the state's code, the city's name.
   */
  location?: 'country' | 'state' | 'city';
  /** Only the server sets it (a teacher's code, the date added); forms never show it. */
  serverSet?: boolean;
  /** For kind 'number': the smallest accepted value (a page number starts at 1). */
  min?: number;
  /**
   * For kind 'file': an add may carry several files, each making one record (addbookpages.php
   * takes `file-0..n`, spec §7). The add's wire name is the first of them (`file-0`); the server
   * also takes `{prefix}1`, `{prefix}2` ... and one file under `single` (older clients send
   * `image`). With `numbering`, the records take the number field in turn in the order sent:
   * from the number given upward, or after the highest of the records sharing `within` when
   * none is given (several-files.ts).
   */
  several?: SeveralFiles;
  /**
   * No two records may hold the same value (unique.ts): `true` across the entity, or
   * `{ within: field }` among the records naming the same parent (a chapter title within its
   * unit). Compared as stored (trimmed, case kept); empty values and records without that
   * parent are never duplicates. The device checks before queueing where it holds the rows
   * (src/db/unique.ts), the table's unique index enforces it, and either way the form shows
   * the same words at the field.
   */
  unique?: true | { within: string };
  /**
   * For kind 'ref': codes a request may send instead of the parent's id (V5's fixed resource-type
   * codes, `videos`, `audio` ...: api-contract §3.15). Each code names the parent record holding
   * the given values, matched by the parent's title without case and created with them when
   * none exists (server/entities/ref-codes.ts). A value of digits is always an id.
   */
  codes?: Readonly<Record<string, Readonly<Record<string, string | number>>>>;
}

/** Several files in one add, one record each (FieldSpec.several). */
export interface SeveralFiles {
  prefix: string;
  single?: string;
  numbering?: { field: string; within: string };
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
  /** Different kinds on update (a school logo may be a gif on update, spec §5). */
  typesOnUpdate?: readonly string[];
  /** Add sends the text `null` when no file was chosen (api-contract: addchapters.php). */
  nullWhenEmptyOnAdd?: boolean;
  /** Hint on the update form, when it differs from the add form's. */
  hintOnUpdate?: string;
  /**
   * On an edit form the current file shows first, with a button that clears it and reveals the
   * file input: its text ('Add New', 'Add New Profile Pic'); absent, a remove cross.
   */
  replaceLabel?: string;
  /** Text shown over the file input once the current file is cleared ('Insert New Media?'). */
  replacePrompt?: string;
}

/**
 * Where a request goes, relative to the API root: a path, or a path told apart from others on
 * the same path by fixed query parameters (`Resources/ResourceTypes/index.php?type=insert`).
 * The server mounts each path once and dispatches on those parameters.
 */
export type Path = string | { readonly path: string; readonly query: Readonly<Record<string, string>> };

/** A list column. */
export type ListColumn =
  /**
   * A row field; several fields shown in one cell with `also` ('Class / Subject / Series').
   * `primary`: the column that names the row (kept in view when a narrow table scrolls, the
   * title of a row shown as a card). Optional: by default the column of the entity's `title`,
   * else the first text column.
   */
  | {
      kind?: 'text';
      field: string;
      header: string;
      also?: readonly string[];
      /** Between the values of `field` and `also`; default ' / '. Empty values are left out. */
      separator?: string;
      /** Further fields shown under the value in small type, where not empty (a question's options). */
      small?: readonly string[];
      primary?: boolean;
    }
  /** A thumbnail of a file field; `opens`: tapping it shows the image large (a page scan). */
  | { kind: 'image'; field: string; header: string; width?: number; round?: boolean; opens?: boolean }
  /** The same text on every row (the library's Resource Tagged: Yes). */
  | { kind: 'fixed'; header: string; text: string }
  /** A date in the long format (teachers' Date Added). */
  | { kind: 'date'; field: string; header: string }
  /** A location's names (country, state, city), from the codes the record keeps. */
  | { kind: 'location'; header: string; country: string; state: string; city: string }
  /** The names of a set relation's records: a few, then '+N more' (Assigned Books). */
  | { kind: 'relation'; relation: string; header: string }
  /**
   * A field action: a toggle's button (Enable when the value is Disabled, Disable otherwise),
   * or a value action's input with its save button (a page number).
   */
  | { kind: 'action'; action: string; header: string }
  /** A link carrying row values in the search: `search` maps search names to row fields. */
  | {
      kind: 'link';
      header: string;
      label: string;
      to: string;
      search?: Readonly<Record<string, string>>;
    };

/** What a row offers: edit, delete, or a screen of the record (Assign Books: `to` + the id). */
export type RowAction = 'edit' | 'delete' | { label: string; to: string };

export interface RowActions {
  /** One column with this header holding every action ('Actions'); absent: one column per action, headed by its label. */
  header?: string;
  items: readonly RowAction[];
}

/**
 * A change of one field through its own endpoint, JSON {id: id, wire: value}: the popular
 * flag of books, the status of schools, teachers and students (toggles between fixed values),
 * a page number (any value of the field's kind: `value`).
 */
export type FieldAction = ToggleAction | ValueAction;

interface FieldActionBase {
  path: Path;
  field: string;
  wire: string;
}

/** A toggle: the accepted values are the keys of its notices. */
export interface ToggleAction extends FieldActionBase {
  /** Notices per new value, e.g. { Enabled: ['Book enabled successfully', 'Failed to enable Book'] }. */
  messages: Readonly<Record<string, readonly [success: string, failure: string]>>;
}

/**
 * Any value the field itself accepts, checked by the field's rules (updatePageNumber.php's
 * `new_page_number`); lists draw it as an input held unsaved until its save button is pressed.
 */
export interface ValueAction extends FieldActionBase {
  value: 'field';
  notices: readonly [success: string, failure: string];
  /** The save button's accessible name ('Save page number'). */
  saveLabel: string;
}

export const isValueAction = (action: FieldAction): action is ValueAction => 'value' in action;

/**
 * Whether an operation is our extension, absent from the PHP API: every operation of an
 * extension entity (Terms, content images), or one listed in `api.extensions` (question edit).
 */
export const isExtension = (entity: EntityDescription, op: 'get' | 'add' | 'update'): boolean =>
  entity.extension === true || (op !== 'add' && (entity.api.extensions?.includes(op) ?? false));

/** The notices of setting `value` through an action, or undefined when the action does not take it. */
export function actionNotices(
  action: FieldAction,
  value: unknown,
): readonly [success: string, failure: string] | undefined {
  if (isValueAction(action)) return action.notices;
  return Object.hasOwn(action.messages, String(value)) ? action.messages[String(value)] : undefined;
}

/**
 * An endpoint answering one field of one record, found by id (`index.php?type=fetchEntryType`
 * answers `entry_type`; `fetchschoolname.php` answers `school_name`).
 */
export interface FieldRead {
  path: Path;
  method: 'GET' | 'POST';
  /** The record's field it answers with. */
  field: string;
  /** The reply's field carrying it. */
  reply: string;
}

/**
 * A set of ids of another entity, owned by a record and replaced whole (the books assigned to
 * a school, a teacher or a student). It has its own endpoints: one reads the set, one replaces
 * it. Locally it is a field of the owner's row holding the ids, named like the relation.
 */
export interface SetRelation {
  /** The entity whose ids the set holds. */
  target: string;
  label: string;
  /** Reads the set: JSON or query {id}, the reply's field is a list of ids. */
  read: { path: Path; method: 'GET' | 'POST'; reply: string };
  /** Replaces the set: JSON {id, [field]: [{[itemKey]: id}, ...]}. */
  write: { path: Path; field: string; itemKey: string };
  /** The screen that edits the set (the record's encoded id follows). */
  route: string;
  messages: readonly [success: string, failure: string];
  /**
   * A list-reply column carrying the names of the set's records as one text ('Number Fun, Word
   * World'): what the original's teachers' and students' lists render as `assigned_books`
   * (api-contract §3.10, §3.11). Whole lists only, never delta pulls (our app reads the ids).
   */
  namesColumn?: string;
}

/**
 * A list filter the server accepts on the list endpoint (`fetchseries.php?subject_id=`).
 * `via` names a child entity that links the two when the row has no such column: subjects
 * belong to a class through a series that has both.
 */
export interface ListFilter {
  param: string;
  via?: string;
  /**
   * A filter by one of fixed values rather than by a parent's id (`fetchteachers.php?status=`).
   * The list screen offers it as a select, kept in the URL, 'All' meaning no filter.
   */
  values?: readonly string[];
  /** The select's label ('Filter by Status'). */
  label?: string;
}

/**
 * A figure a list reply carries beside its rows (`fetchteachers.php` answers `totalDisabled`
 * and `totalBRow`): the count of this entity's rows whose fields have the given values, or the
 * count of another entity's records in no set relation at all (books assigned to no school,
 * teacher or student).
 */
export type ListTotal = { count: Readonly<Record<string, string>> } | { unrelated: string };

/** A cascade helper: the entity's rows whose columns equal the given parameters. */
export interface Lookup {
  path: Path;
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
  /** List endpoint; the reply carries rows in `listField` plus `total`. Absent for single documents. */
  list?: Path;
  listField?: string;
  /** Get-one endpoint, the id in the query string. */
  get?: Path;
  /** The reply's field wrapping the row; `null`: the row's columns at the top level (getSchool.php). */
  getField?: string | null;
  add?: Path;
  update?: Path;
  /** Where update puts the record id: in the body (JSON or multipart) or only in the query string. */
  updateIdIn?: 'body' | 'query';
  /** Absent: the entity cannot be deleted (no endpoint, no Delete button). */
  remove?: Path;
  /** The id's name on the wire when it is not the key column's (resource types: `type_id` for `id`). */
  idParam?: string;
  /** Request encoding of add and update. Deletes are always JSON. */
  encoding: 'json' | 'multipart';
  /** Units sort with sortColumn/sortOrder, book pages with sort; the other lists send sortOption. */
  sortParams?: 'sortOption' | 'sortColumn' | 'sort';
  /** Endpoints answering one field by id. */
  reads?: Readonly<Record<string, FieldRead>>;
  /** Figures the list reply carries beside its rows. */
  listTotals?: Readonly<Record<string, ListTotal>>;
  /** Failures of add and update carry their message under this field too (addlibrary.php's `error`). */
  errorField?: 'error';
  /** Further endpoints answering exactly like `get` (fetchbookdetails.php reads a book for the page screens). */
  alsoGet?: readonly Path[];
  /**
   * Operations that are our extension, not the PHP API's (question edit: getquestion.php and
   * updatequestion.php). Our server mounts them outside legacy mode only; the app asks the server
   * whether it has them before it offers them, and queues nothing when it has not.
   */
  extensions?: readonly ('get' | 'update')[];
}

export interface EntityRoutes {
  list?: string;
  add?: string;
  /** Edit route prefix; the Base64-encoded id follows it. Single documents: the whole route. */
  edit?: string;
  /**
   * More routes to the add screen (spec §2: /addterms uses the About Us editor and endpoints).
   * Each gets a note under the heading saying what the screen saves.
   */
  addAliases?: readonly { path: string; note: string }[];
  /**
   * Records listed and added inside one parent record (the pages of a book): the list and add
   * routes take the parent's encoded id (`/managebookpages/{book_id}`), the list shows that
   * parent's records only and a new record gets that parent. `picker` lists the parent
   * entity's records, each with links to both (/bookpages).
   */
  within?: { field: string; picker?: Picker };
  /** Where a form goes after a save and on Cancel; default the list. */
  afterSave?: string;
  /** Its entry (or entries) in the top bar's menus (contract/menu.ts); none: not in a menu. */
  menu?: MenuEntry | readonly MenuEntry[];
  /**
   * The route of its CSV import (issue 20, src/contract/csv/): declared, the entity has an
   * import screen, an "Import" link in its list's header and a template.
   */
  import?: string;
}

/** A list of the parent entity's records leading to the screens of its children (EntityRoutes.within). */
export interface Picker {
  route: string;
  /** Columns of the parent's rows. */
  columns: readonly ListColumn[];
  /** Texts of the picker's list (title, search placeholder, empty text). */
  texts: ScreenTexts;
  /** Row links, each to a route followed by the parent's encoded id. */
  links: readonly { label: string; to: string }[];
}

/** The screens' words, where the spec has its own; defaults come from `names` (messages.ts). */
export interface ScreenTexts {
  /** Default 'Manage {Many}'. */
  listTitle?: string;
  /** The list's add button. Default 'Add {One}'. */
  addButton?: string;
  /** Default 'No {many} found.' */
  empty?: string;
  /** Default 'S.no'. */
  sno?: string;
  /** Default 'Search {many}'. */
  searchPlaceholder?: string;
  /** Default 'Add {One}'. */
  addTitle?: string;
  /** Default: the add title. */
  addSubmit?: string;
  /** Default 'Update {One}'. */
  editTitle?: string;
  /** Default: the edit title. */
  editSubmit?: string;
  /** The list's footer; default 'Showing {first} to {last} of {total} entries'. */
  showing?: string;
}

/**
 * The change notices where the spec has its own (messages.ts): 'Resource added successfully'
 * for an add and an edit of a library resource. `null`: no notice on success (book pages'
 * add and update navigate silently, spec §8); failures are always told.
 */
export type Notices = Partial<Record<'added' | 'updated' | 'deleted', string | null>> &
  Partial<Record<'failedAdd' | 'failedUpdate' | 'failedDelete', string>>;

/**
 * Inputs that appear by a code (spec §4: the chosen resource type's entry type decides a
 * library resource's inputs; a question's type shows four options or two match texts). The
 * code is the value of `field`, or with `parentField`, that field of the parent record `field`
 * names. An input in none of the lists always appears; one in some list appears for those
 * codes only, and is sent empty when hidden.
 */
export interface SwitchedInputs {
  field: string;
  parentField?: string;
  inputs: Readonly<Record<string, readonly string[]>>;
  /** Per code, inputs that must be filled when shown (an MCQ's four options); own-field switches only. */
  required?: Readonly<Record<string, readonly string[]>>;
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
    /** Columns with an order sort from their headers (list-order.ts). */
    columns: readonly ListColumn[];
    /** Fields the search box matches (case-insensitive substring). */
    search: readonly string[];
    /** Default order of rows (Units: by id, ascending, as the spec has it), shown before any click. */
    sort: { field: string; dir: 'asc' | 'desc' };
    pageSize: number;
    /** Row actions; default Edit and Delete, each in its own column, as far as the entity has them. */
    actions?: RowActions;
    /** Page sizes the list offers in a 'Show' select; default 10, 25, 50, 100 (list-order.ts). Changing it goes to page 1. */
    pageSizes?: readonly number[];
  };
  texts?: ScreenTexts;
  notices?: Notices;
  /** Inputs shown by a code (library resources, questions). */
  switched?: SwitchedInputs;
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
  /** Sets of ids with their own endpoints (book assignments). */
  relations?: Readonly<Record<string, SetRelation>>;
  /** Filters the list endpoint accepts. */
  filters?: readonly ListFilter[];
  /** Cascade helper endpoints that list this entity's rows. */
  lookups?: readonly Lookup[];
  /**
   * A single document without an id on the wire (About Us): read by `api.get` without
   * parameters, written by add and update with its fields only. Locally it is one row whose
   * key is `id`.
   */
  single?: { id: string };
  /**
   * Our extension, not the PHP API's (Terms, content images): every endpoint exists only on our
   * server, and not in its legacy mode. The client learns from a 404 to its read (pull) that a
   * server lacks them (src/db/extensions.ts) and its screens say so instead of queueing changes
   * that could never be delivered.
   */
  extension?: boolean;
}

/** Identity helper that keeps literal types while checking the shape. */
export function defineEntity<const E extends EntityDescription>(entity: E): E {
  return entity;
}

/** The field's wire name for an operation, or undefined when the operation does not send it. */
export function wireName(spec: FieldSpec, op: Op): string | undefined {
  return typeof spec.wire === 'string' ? spec.wire : spec.wire?.[op];
}

/** Fields that are sent on the wire for an operation, in description order, with that operation's wire name. */
export function wireFields(entity: EntityDescription, op: Op): [string, FieldSpec & { wire: string }][] {
  const out: [string, FieldSpec & { wire: string }][] = [];
  for (const [name, spec] of Object.entries(entity.fields)) {
    const wire = wireName(spec, op);
    if (wire) out.push([name, { ...spec, wire }]);
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

/** The id's name on the wire (`type_id` for resource types, the key elsewhere). */
export const idParamOf = (entity: EntityDescription): string => entity.api.idParam ?? entity.key;

/** Splits a Path into its path and its fixed query parameters. */
export function splitPath(at: Path): { path: string; query: Readonly<Record<string, string>> } {
  return typeof at === 'string' ? { path: at, query: {} } : at;
}

/** The name of a field's choice code, or the code itself when unknown. */
export function choiceLabel(spec: FieldSpec, value: unknown): string {
  const code = String(value ?? '');
  return spec.choices?.find((c) => c.value === code)?.label ?? code;
}

/** The row fields a list column shows (none for buttons and links). */
export function columnFields(column: ListColumn): string[] {
  if (column.kind === 'action' || column.kind === 'link' || column.kind === 'relation') return [];
  if (column.kind === 'fixed') return [];
  if (column.kind === 'location') return [column.country, column.state, column.city];
  if (column.kind === 'image' || column.kind === 'date') return [column.field];
  return [column.field, ...(column.also ?? [])];
}
