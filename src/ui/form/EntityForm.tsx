/**
 * The add or edit form of one record: its fields with their problems, the cascade (changing a
 * level clears the ones below), and its Save (use-form-save.ts: the check, the save, then back
 * to the list with the server's verdict as a notice).
 */
import { Link } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import { cannotChange } from '../../contract/accounts/roles';
import { type EntityDescription, formFields, type Op } from '../../contract/entity';
import { STORAGE_FULL, screenTexts } from '../../contract/messages';
import { isShown } from '../../contract/switched-inputs';
import { useRefOptions } from '../data';
import { useContentImages } from '../extensions-data';
import type { FormValue } from '../fields/types';
import { useMayStartChanging } from '../may-change';
import { useRole } from '../role';
import { encodeRouteId } from '../route-id';
import { SaveUnsentButton } from '../saved-queue/SaveUnsentButton';
import { usePageTitle } from '../use-page-title';
import { ChangedElsewhereNotice } from './ChangedElsewhereNotice';
import { FormActions } from './FormActions';
import { FormGrid } from './FormGrid';
import { FormIntro } from './FormIntro';
import type { FormValues } from './form-values';
import { ProblemSummary, SUMMARY_FROM_FIELDS } from './ProblemSummary';
import { SendingFiles } from './SendingFiles';
import { useSwitchCode } from './switch-code';
import { useChangedElsewhere } from './use-changed-elsewhere';
import { useFormSave } from './use-form-save';
import { useFormValues } from './use-form-values';
import { useProblems } from './use-problems';
import { useUsedWarnings } from './use-used-warnings';

/**
 * Where the form goes after a save and on Cancel: the description's place, the list (inside
 * the record's parent where lists are), or for a single document itself.
 */
function backOf(entity: EntityDescription, initial: FormValues): string {
  const within = entity.routes.within?.field;
  return (
    entity.routes.afterSave ??
    (within && entity.routes.list
      ? `${entity.routes.list}/${encodeRouteId(String(initial[within]))}`
      : (entity.routes.list ?? entity.routes.edit ?? '/homepage'))
  );
}

/** A ref for the save's failure: it takes the focus when a failure is shown, to be read out. */
function useFocusedWhenShown(failure: string | null) {
  const failureRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (failure) failureRef.current?.focus();
  }, [failure]);
  return failureRef;
}

export function EntityForm({
  entity,
  id,
  initial,
  note,
}: {
  entity: EntityDescription;
  id: string | null;
  initial: FormValues;
  note?: string;
}) {
  const op: Op = id === null ? 'add' : 'update';
  const texts = screenTexts(entity);
  const title = op === 'add' ? texts.addTitle : texts.editTitle;
  const submitLabel = op === 'add' ? texts.addSubmit : texts.editSubmit;
  const back = backOf(entity, initial);
  usePageTitle(title);
  const fields = formFields(entity, op);
  const cascade = entity.cascadeIn?.includes(op) ?? true;
  const form = useFormValues(entity, id, initial, fields, cascade);
  const { values, draft } = form;
  const { problems, refuse, clear, errorOf } = useProblems(entity, id);
  const options = useRefOptions(entity, fields, values, cascade);
  const warnings = useUsedWarnings(entity, values, id);
  const images = useContentImages();
  const code = useSwitchCode(entity, values);
  const shown = fields.filter((name) => isShown(entity, name, code));
  const elsewhere = useChangedElsewhere({ entity, id, stored: initial, form, shown, cascade });

  const { submit, busy, failure, setFailure, sending } = useFormSave({
    entity,
    id,
    back,
    values,
    draft,
    refuse,
    shownBy: { fields, code },
  });
  const failureRef = useFocusedWhenShown(failure);
  const role = useRole();
  const may = useMayStartChanging(entity);

  const change = (name: string, value: FormValue) => {
    setFailure(null);
    form.change(name, value, clear);
  };

  return (
    <section className="screen">
      <FormIntro entity={entity} id={id} title={title} note={note} initial={initial} form={form} />
      <ChangedElsewhereNotice entity={entity} changes={elsewhere} />
      {/* The form checks every field itself (formProblems), so the browser's bubbles stay away. */}
      <form className="form" onSubmit={submit} noValidate>
        {failure && (
          <p className="form-error" role="alert" tabIndex={-1} ref={failureRef}>
            {failure}
            {failure === STORAGE_FULL && <SaveUnsentButton className="button button-small block" />}
          </p>
        )}
        {problems.length > 0 && (shown.length >= SUMMARY_FROM_FIELDS || entity.requiredMessage) && (
          <ProblemSummary entity={entity} problems={problems} />
        )}
        {!may && <p role="status">{cannotChange(role, entity)}</p>}
        {/* Read-only for a role that may not change the entity: every field shown, none editable. */}
        <fieldset className="plain-fieldset" disabled={!may}>
          <FormGrid
            entity={entity}
            op={op}
            shown={shown}
            values={values}
            options={options}
            images={images}
            errorOf={errorOf}
            warnings={warnings}
            onChange={change}
          />
        </fieldset>
        {sending && <SendingFiles entity={entity} entryIds={sending} back={back} />}
        {may ? (
          <FormActions submit={submitLabel} disabled={busy} back={back} onCancel={draft.forget} />
        ) : (
          <div className="form-actions">
            <Link to={back} className="button button-light">
              Back
            </Link>
          </div>
        )}
      </form>
    </section>
  );
}
