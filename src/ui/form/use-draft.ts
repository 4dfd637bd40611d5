/**
 * An add or edit form's draft (app/drafts.ts): restored over the record's values when the form
 * opens, written as the administrator types, forgotten on a save, on Cancel and on "Discard
 * draft".
 */
import { useEffect, useMemo, useState } from 'react';
import { type Draft, draftKey, forgetDraft, keepDraft, readDraft } from '../../app/drafts';
import type { EntityDescription } from '../../contract/entity';
import type { FormValue } from '../fields/types';
import type { FormValues } from './form-values';

const isFile = (value: FormValue): value is File => typeof File !== 'undefined' && value instanceof File;

/** The draft of the values: text kept, passwords left out, chosen files by name. */
function draftOf(entity: EntityDescription, values: FormValues): Draft {
  const draft: Draft = { values: {}, files: {}, savedAt: Date.now() };
  for (const [name, value] of Object.entries(values)) {
    if (entity.fields[name]?.kind === 'password') continue;
    if (typeof value === 'string') draft.values[name] = value;
    else {
      const files = (isFile(value) ? [value] : [...value]).map((f) => f.name);
      if (files.length > 0) draft.files[name] = files;
    }
  }
  return draft;
}

const differs = (draft: Draft, initial: FormValues) =>
  Object.keys(draft.files).length > 0 ||
  Object.entries(draft.values).some(([name, value]) => value !== (initial[name] ?? ''));

export interface FormDraft {
  /** The values to open the form with: the record's, with the draft's text over them. */
  values: FormValues;
  /** The draft brought back when the form opened, or null. */
  restored: Draft | null;
  /** Writes the values typed so far. */
  keep: (values: FormValues) => void;
  /** Forgets the draft (a save, Cancel, Discard draft). */
  forget: () => void;
}

export function useDraft(entity: EntityDescription, record: string, initial: FormValues): FormDraft {
  const key = draftKey(entity.name, record);
  const [restored, setRestored] = useState<Draft | null>(() => {
    const draft = readDraft(key);
    return draft && differs(draft, initial) ? draft : null;
  });
  const values = useMemo(
    () => (restored ? { ...initial, ...restored.values } : initial),
    [initial, restored],
  );
  // A draft equal to the record (typed and undone) is no draft.
  useEffect(() => {
    if (!restored) forgetDraft(key);
  }, [key, restored]);
  return {
    values,
    restored,
    keep: (typed) => {
      const draft = draftOf(entity, typed);
      if (differs(draft, initial)) keepDraft(key, draft);
      else forgetDraft(key);
    },
    forget: () => {
      forgetDraft(key);
      setRestored(null);
    },
  };
}
