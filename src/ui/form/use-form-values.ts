/**
 * A form's values: opened from the record with its draft over it (use-draft.ts), kept as a
 * draft as they change, a change to an upper level clearing the ones below (spec §4).
 */
import { useState } from 'react';
import { dependants } from '../../contract/cascade';
import type { EntityDescription } from '../../contract/entity';
import type { FormValue } from '../fields/types';
import { useKeptAsDraft } from './DraftNotice';
import type { FormValues } from './form-values';
import { type FormDraft, useDraft } from './use-draft';

export interface FormValuesState {
  values: FormValues;
  draft: FormDraft;
  /** Sets a field; `cleared` hears which fields changed (it and those it clears). */
  change: (name: string, value: FormValue, cleared: (fields: Set<string>) => void) => void;
  /** Forgets the draft and shows the record's values again. */
  discard: () => void;
  /** Sets these fields as they are given (values the stored record took elsewhere): nothing is cleared. */
  take: (taken: FormValues) => void;
}

export function useFormValues(
  entity: EntityDescription,
  id: string | null,
  initial: FormValues,
  fields: readonly string[],
  cascade: boolean,
): FormValuesState {
  const within = entity.routes.within?.field;
  const draft = useDraft(entity, id ?? `new:${within ? String(initial[within] ?? '') : ''}`, initial);
  const [values, setValues] = useState<FormValues>(draft.values);
  useKeptAsDraft(values, draft.keep);
  return {
    values,
    draft,
    change: (name, value, cleared) => {
      const below = cascade ? dependants(entity, name, fields) : [];
      cleared(new Set([name, ...below]));
      setValues((all) => {
        const next = { ...all, [name]: value };
        for (const field of below) next[field] = '';
        return next;
      });
    },
    discard: () => {
      draft.forget();
      setValues(initial);
    },
    take: (taken) => setValues((all) => ({ ...all, ...taken })),
  };
}
