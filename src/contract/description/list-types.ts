/**
 * The description's lists and actions: paths, list columns, what a row offers, field actions,
 * reads of one field, set relations, filters, totals and lookups.
 */
/**
 * Where a request goes, relative to the API root: a path, or a path told apart from others on
 * the same path by fixed query parameters (`Resources/ResourceTypes/index.php?type=insert`).
 * The server mounts each path once and dispatches on those parameters.
 */
export type Path = string | { readonly path: string; readonly query: Readonly<Record<string, string>> };

/**
 * Where a list column stands when a tablet is too narrow for all of them (the screens on a
 * tablet, ARCHITECTURE.md). 'high', the default: a column at every width (the name, codes,
 * Status; the row actions always are). 'medium': a column from 1024 px (a landscape tablet);
 * narrower, its value moves behind the row's More disclosure. 'low': a column from 1280 px;
 * on any tablet, behind More. On a phone every row is a card showing every value.
 */
export type ColumnPriority = 'high' | 'medium' | 'low';

/** A list column: one of the kinds below, with its priority on a tablet. */
export type ListColumn = ListColumnKind & { readonly priority?: ColumnPriority };

/** A list column's kinds. */
export type ListColumnKind =
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
