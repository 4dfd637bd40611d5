/** The entity description itself: names, endpoints, routes, screen texts and what it holds. */
import type { MenuEntry } from '../catalogue/menu-entry';
import type { FieldSpec, Op } from './field-types';
import type {
  FieldAction,
  FieldRead,
  ListColumn,
  ListFilter,
  ListTotal,
  Lookup,
  Path,
  RowActions,
  SetRelation,
} from './list-types';

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
  /** Its entry (or entries) in the top bar's menus (contract/catalogue/menus.ts); none: not in a menu. */
  menu?: MenuEntry | readonly MenuEntry[];
  /**
   * The route of its CSV import (src/contract/csv/): declared, the entity has an
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
   * server lacks them (src/db/known-extensions.ts) and its screens say so instead of queueing changes
   * that could never be delivered. Every entity the PHP API lacks sets it, a newcomer's too:
   * unmarked, its 404 ends every pull from a PHP server as refused. The PHP API's entities are
   * listed in tests/unit/contract/php-api-entities.test.ts, which fails for an entity that says neither.
   */
  extension?: boolean;
}
