/**
 * A form's Save: the check, the save (save-form.ts), then back to the list with the server's
 * verdict as a notice. What the administrator typed stays in the form until the change is saved
 * locally; a refusal at a field is said at the field, a failure of the save itself above it.
 */
import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { awaitDelivery, fieldRefusal, isStorageFull, roleRefusal } from '../../app/records';
import type { EntityDescription, Op } from '../../contract/entity';
import { entityMessages, STORAGE_FULL } from '../../contract/messages';
import { type FieldProblem, formProblems } from '../../contract/validation';
import { useNotify } from '../notices';
import { reportOutcomes, savedNoticeTopic } from '../report-outcome';
import type { FormValues } from './form-values';
import { saveForm } from './save-form';
import type { FormDraft } from './use-draft';

export interface FormSaveInput {
  entity: EntityDescription;
  id: string | null;
  /** Where the form goes once saved. */
  back: string;
  values: FormValues;
  draft: FormDraft;
  /** Shows problems at their fields; true when there were some. */
  refuse: (found: FieldProblem[]) => boolean;
  /** The fields shown and the code that switches them (hidden ones are sent empty). */
  shownBy: { fields: readonly string[]; code: string | null };
}

export function useFormSave({ entity, id, back, values, draft, refuse, shownBy }: FormSaveInput) {
  const op: Op = id === null ? 'add' : 'update';
  const text = entityMessages(entity);
  const notify = useNotify();
  const navigate = useNavigate();
  /** A failure of the save itself (storage full), not of a field. */
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  /** The changes whose files are on their way, while the form waits for them (online). */
  const [sending, setSending] = useState<string[] | null>(null);

  const saved = async () => {
    const saved = await saveForm(entity, id, values, shownBy, setSending);
    draft.forget();
    await navigate({ to: back, state: (s) => ({ ...s, reveal: saved.reveal }) });
    const outcomes = saved.outcomes ?? [await awaitDelivery(saved.entryIds[0] ?? null)];
    const [success, failed] = op === 'add' ? [text.added, text.failedAdd] : [text.updated, text.failedUpdate];
    const files = saved.largeFiles ? saved.progress : undefined;
    reportOutcomes(notify, outcomes, success, failed, files, savedNoticeTopic(saved.entryIds));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (refuse(formProblems(entity, op, values, shownBy.code))) return;
    setBusy(true);
    try {
      await saved();
    } catch (error) {
      // Nothing was saved (one transaction); the typed values stay in the form.
      setBusy(false);
      setSending(null);
      // A value another record holds: said at its field, like the form's own checks.
      const atField = fieldRefusal(error);
      if (atField) {
        refuse([{ ...atField, missing: false }]);
        return;
      }
      // Outside the role (changed by a pull since the form opened): the server's own words.
      const refused = roleRefusal(error);
      if (refused) return setFailure(refused);
      setFailure(isStorageFull(error) ? STORAGE_FULL : op === 'add' ? text.errorAdd : text.errorUpdate);
      console.error(error);
    }
  };

  return { submit, busy, failure, setFailure, sending };
}
