/**
 * The spec's message texts (spec §8), derived from an entity's names so that every entity
 * says them the same way. Kept word for word: 'Class added successfully', 'Failed to add class'.
 */
import type { EntityDescription, EntityNames, ScreenTexts } from './entity';

export function messages(n: EntityNames) {
  return {
    added: `${n.One} added successfully`,
    updated: `${n.One} updated successfully`,
    deleted: `${n.One} deleted successfully`,
    failedAdd: `Failed to add ${n.one}`,
    failedUpdate: `Failed to update ${n.one}`,
    failedDelete: `Failed to delete ${n.one}`,
    failedFetch: `Failed to fetch ${n.many}`,
    errorAdd: `Error adding ${n.one}`,
    errorUpdate: `Error updating ${n.one}`,
    errorDelete: `Error deleting ${n.one}`,
    errorFetch: `Error fetching ${n.many}`,
    empty: `No ${n.many} found.`,
    title: `Manage ${n.Many}`,
  };
}

/**
 * An entity's change notices: its own where the spec has them (`notices`: 'Resource added
 * successfully' for a library resource's add and edit), else derived from its names. A success
 * notice may be null: that change succeeds silently (book pages).
 */
export function entityMessages(entity: EntityDescription) {
  const own = entity.notices ?? {};
  const base = messages(entity.names);
  const pick = (k: 'added' | 'updated' | 'deleted') => (k in own ? (own[k] ?? null) : base[k]);
  return {
    ...base,
    added: pick('added'),
    updated: pick('updated'),
    deleted: pick('deleted'),
    failedAdd: own.failedAdd ?? base.failedAdd,
    failedUpdate: own.failedUpdate ?? base.failedUpdate,
    failedDelete: own.failedDelete ?? base.failedDelete,
  };
}

/** A list footer from its template (ScreenTexts.showing): 'Showing 1 to 10 of 23 entries'. */
export function showingText(template: string, first: number, last: number, total: number): string {
  return template
    .replace('{first}', String(first))
    .replace('{last}', String(last))
    .replace('{total}', String(total));
}

/** The screens' words: the description's own where the spec has them, else derived from its names. */
export function screenTexts(entity: EntityDescription): Required<ScreenTexts> {
  const n = entity.names;
  const t = entity.texts ?? {};
  const addTitle = t.addTitle ?? `Add ${n.One}`;
  const editTitle = t.editTitle ?? `Update ${n.One}`;
  return {
    listTitle: t.listTitle ?? `Manage ${n.Many}`,
    addButton: t.addButton ?? `Add ${n.One}`,
    empty: t.empty ?? `No ${n.many} found.`,
    sno: t.sno ?? 'S.no',
    searchPlaceholder: t.searchPlaceholder ?? `Search ${n.many}`,
    addTitle,
    addSubmit: t.addSubmit ?? addTitle,
    editTitle,
    editSubmit: t.editSubmit ?? editTitle,
    showing: t.showing ?? 'Showing {first} to {last} of {total} entries',
  };
}

/** Refusal to delete a record that children still name (server 409, and the same check locally). */
export function stillUsedBy(parent: EntityNames, child: EntityNames): string {
  return `This ${parent.one} cannot be deleted: ${child.many} still belong to it. Delete them first.`;
}

export const LOGIN_FAILED = 'Login failed';
export const LOGIN_ERROR = 'An error occurred during login';
/** Added to a success message when the change was kept on this device (design brief §7). */
export const SAVED_OFFLINE = 'saved on this device, will be sent when online';
/** The same while online, when the server has not confirmed it within a few seconds. */
export const SAVED_NO_ANSWER_YET = 'saved on this device, the server has not confirmed it yet';
/** A saved change whose file is still on its way (percent of its bytes sent, when known). */
export const fileBeingSent = (percent: number | null) =>
  percent === null ? 'Saved; the file is being sent.' : `Saved; the file is being sent, ${percent}%.`;
/** The same once the connection dropped before the file was through. */
export const FILE_SENT_WHEN_ONLINE = 'Saved on this device; the file is sent when the connection returns.';
/** Where an upload's progress can be followed after its form has closed. */
export const FILE_PROGRESS_WHERE = 'Its progress shows in the top bar and on the outbox screen.';
export const SESSION_REQUIRED = 'Your session has ended. Please sign in again.';
/** IndexedDB refused the write for lack of space: nothing was saved, the queue is intact. */
export const STORAGE_FULL =
  'This device is out of storage space, so the change was not saved. Free some space and try again; changes already waiting are safe.';
