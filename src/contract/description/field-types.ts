/** The description's fields: their kinds, what each kind carries, files' rules. */
/** `url`: a link field, an absolute http or https URL (no other scheme is stored). */
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
   * unit). Compared as stored (trimmed; an e-mail without case); empty values and records without that
   * parent are never duplicates. The device checks before queueing where it holds the rows
   * (src/db/mutations/refuse-duplicates.ts), the table's unique index enforces it, and either way the form
   * shows the same words at the field.
   */
  unique?: true | { within: string };
  /**
   * A value another record of the same parent already holds is said before saving, but
   * accepted (a page number already used in its book: the spec allows it). The form and a
   * list's value action show the words of contract/used-values.ts under the control.
   */
  flagUsed?: { within: string };
  /**
   * For kind 'ref': codes a request may send instead of the parent's id (V5's fixed resource-type
   * codes, `videos`, `audio` ...: api-contract §3.15). Each code names the parent record holding
   * the given values, matched by the parent's title without case and created with them when
   * none exists (server/entity-writes/ref-codes.ts). A value of digits is always an id.
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
