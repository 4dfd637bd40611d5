/**
 * What schools, teachers and students share (spec §3, api-contract §3.9-3.12): contact fields,
 * a location kept as the legacy values (country ISO2, state code, city name), a password that
 * is hashed and never returned, a picture, an Enabled/Disabled status toggled through its own
 * endpoint with the new value, and the set of books assigned to the record.
 *
 * The status trio serves any entity with an Enabled/Disabled toggle: `status` in its fields,
 * `statusColumn` in its list, `actions: { status: statusToggle(path, One, one) }`, and a
 * `status text NOT NULL DEFAULT 'Enabled' CHECK (status IN ('Enabled', 'Disabled'))` column.
 * The server's toggle endpoint, the list's button, bulk Enable/Disable and CSV follow from it.
 */
import type { FieldAction, FieldSpec, FileRule, ListColumn, SetRelation } from '../entity';

/** One record per address, compared without case (contract/unique.ts). */
export const email = {
  kind: 'email',
  label: 'Email',
  required: true,
  wire: 'email',
  maxLength: 254,
  unique: true,
} as const satisfies FieldSpec;

/** Required on add; an empty password on update keeps the current one (design brief §4). */
export const password = {
  kind: 'password',
  label: 'Password',
  required: true,
  wire: 'password',
  maxLength: 200,
} as const satisfies FieldSpec;

export const contactNumber = {
  kind: 'phone',
  label: 'Contact Number',
  required: true,
  wire: 'contactNumber',
} as const satisfies FieldSpec;

export const country = {
  kind: 'text',
  label: 'Country',
  required: true,
  wire: 'country',
  location: 'country',
  maxLength: 2,
} as const satisfies FieldSpec;
export const state = {
  kind: 'text',
  label: 'State',
  required: true,
  wire: 'state',
  location: 'state',
  maxLength: 10,
  dependsOn: ['country'],
} as const satisfies FieldSpec;
export const city = {
  kind: 'text',
  label: 'City',
  required: true,
  wire: 'city',
  location: 'city',
  maxLength: 120,
  dependsOn: ['country', 'state'],
} as const satisfies FieldSpec;

export const zipcode = {
  kind: 'text',
  label: 'Zip Code',
  wire: 'zipcode',
  maxLength: 20,
} as const satisfies FieldSpec;

/** New records added by an administrator are approved (Enabled); the toggle changes it. */
export const status = { kind: 'status', label: 'Status', initial: 'Enabled' } as const satisfies FieldSpec;

export const PICTURE_HINT = 'jpg, jpeg, png (max size: 2 MB)';

/** A profile picture or logo: jpg, jpeg or png up to 2 MB, checked by content. */
export const picture = (folder: string, extra: Partial<FileRule> = {}): FileRule => ({
  folder,
  types: ['jpg', 'jpeg', 'png'],
  maxBytes: 2 * 1024 * 1024,
  ...extra,
});

/** The status toggle's endpoint and notices ('School enabled successfully', 'Failed to disable school'). */
export function statusToggle(path: string, One: string, one: string): FieldAction {
  return {
    path,
    field: 'status',
    wire: 'status',
    messages: {
      Enabled: [`${One} enabled successfully`, `Failed to enable ${one}`],
      Disabled: [`${One} disabled successfully`, `Failed to disable ${one}`],
    },
  };
}

/**
 * The books assigned to a record, replaced whole through `assign` (api-contract §3.12). The
 * teachers' and students' lists of the original render `assigned_books` as it comes, so their
 * list replies carry the books' names under it (`namesColumn`); the schools' list has none.
 */
export function assignedBooks(
  folder: string,
  assign: string,
  route: string,
  namesColumn?: 'assigned_books',
): SetRelation {
  return {
    target: 'book',
    label: 'Assigned Books',
    read: { path: `${folder}/fetchassigned.php`, method: 'POST', reply: 'assignedBooks' },
    write: { path: `${folder}/${assign}`, field: 'books', itemKey: 'book_id' },
    route,
    messages: ['Books assigned successfully', 'Failed to assign books'],
    ...(namesColumn ? { namesColumn } : {}),
  };
}

/** The columns every people list has; the wide ones leave the table on a tablet (behind More). */
export const contactColumn = {
  field: 'email',
  header: 'Contact',
  also: ['contact_no'],
  priority: 'low',
} as const satisfies ListColumn;
export const locationColumn = {
  kind: 'location',
  header: 'Location',
  country: 'country',
  state: 'state',
  city: 'city',
  priority: 'low',
} as const satisfies ListColumn;
export const statusColumn = {
  kind: 'action',
  action: 'status',
  header: 'Status',
} as const satisfies ListColumn;
export const assignedColumn = {
  kind: 'relation',
  relation: 'books',
  header: 'Assigned Books',
  priority: 'low',
} as const satisfies ListColumn;
