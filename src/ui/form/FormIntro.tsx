/** What a form says above its fields: its title, the record's history and choice, a note, a draft, the parent. */
import type { EntityDescription } from '../../contract/entity';
import { ParentName } from '../ParentName';
import { ChoiceNotice } from './ChoiceNotice';
import { DraftNotice } from './DraftNotice';
import type { FormValues } from './form-values';
import { HistoryLink } from './HistoryLink';
import type { FormValuesState } from './use-form-values';

export function FormIntro({
  entity,
  id,
  title,
  note,
  initial,
  form,
}: {
  entity: EntityDescription;
  id: string | null;
  title: string;
  note?: string;
  initial: FormValues;
  form: FormValuesState;
}) {
  const within = entity.routes.within?.field;
  return (
    <>
      <h1>{title}</h1>
      {id !== null && <HistoryLink entity={entity} id={id} />}
      {id !== null && <ChoiceNotice entity={entity} id={id} />}
      {note && <p className="muted">{note}</p>}
      {form.draft.restored && (
        <DraftNotice draft={form.draft.restored} entity={entity} onDiscard={form.discard} />
      )}
      {within && <ParentName entity={entity} field={within} id={String(initial[within] ?? '')} />}
    </>
  );
}
