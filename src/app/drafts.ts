/**
 * Drafts of add and edit forms: what an administrator typed, kept on this device as they type
 * so that leaving the form by any way but Cancel or a save (Back, a menu link, a reload, a
 * crash) loses nothing; the form brings it back when opened again. Kept in localStorage by
 * administrator, entity and record. Text only: passwords are never written down, and a chosen
 * file cannot be kept this way, so the draft keeps its name and the form asks for it again.
 */
import { signedInUser } from './session';

export interface Draft {
  /** The form's text values, passwords left out. */
  values: Record<string, string>;
  /** By field, the names of the files that were chosen, to be chosen again. */
  files: Record<string, string[]>;
  savedAt: number;
}

const PREFIX = 'draft:';

/** The draft's place: one per administrator, entity, and record (or new record in its parent). */
export const draftKey = (entity: string, record: string) =>
  `${PREFIX}${signedInUser() ?? ''}:${entity}:${record}`;

export function readDraft(key: string): Draft | null {
  try {
    const text = localStorage.getItem(key);
    return text ? (JSON.parse(text) as Draft) : null;
  } catch {
    return null;
  }
}

export function keepDraft(key: string, draft: Draft): void {
  try {
    localStorage.setItem(key, JSON.stringify(draft));
  } catch {
    // A full storage keeps the form working; the draft is a convenience.
  }
}

export function forgetDraft(key: string): void {
  localStorage.removeItem(key);
}
