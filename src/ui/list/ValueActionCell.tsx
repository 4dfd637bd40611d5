/**
 * A value action in a list row (a page number, updatePageNumber.php): an input showing the
 * stored value, and a save button. What is typed is held unsaved, and marked so, until the
 * button is pressed (or Enter); Escape puts the stored value back. The value is checked by
 * the field's rules before it is saved; the notices are the action's own ('Page number
 * updated successfully', 'Failed to update page number').
 */
import { type KeyboardEvent, useState } from 'react';
import { saveChange } from '../../app/records';
import type { EntityDescription, ValueAction } from '../../contract/entity';
import { parseFieldValue } from '../../contract/validation';
import type { Row } from '../data';
import { useUsedWarnings } from '../form/use-used-warnings';
import { useMayChange } from '../may-change';
import { useNotify } from '../notices';
import { reportOutcome } from '../report-outcome';
import { saveFailureDetail } from '../save-failure';

export function ValueActionCell({
  entity,
  name,
  action,
  row,
}: {
  entity: EntityDescription;
  name: string;
  action: ValueAction;
  row: Row;
}) {
  const notify = useNotify();
  const may = useMayChange(entity);
  const spec = entity.fields[action.field];
  const stored =
    row[action.field] === null || row[action.field] === undefined ? '' : String(row[action.field]);
  const [draft, setDraft] = useState<string | null>(null);
  const unsaved = draft !== null && draft !== stored;
  const title = String(row[entity.title] ?? '');
  const [success, failure] = action.notices;
  const key = String(row[entity.key]);
  const warning = useUsedWarnings(entity, { ...row, [action.field]: draft ?? stored }, key)[action.field];

  const save = async () => {
    if (!unsaved) return;
    const checked = parseFieldValue(spec, draft);
    if (!checked.ok) return notify('error', failure, checked.message);
    try {
      const { entryId } = await saveChange({ op: 'set', entity, key, action: name, value: checked.value });
      setDraft(null);
      await reportOutcome(notify, entryId, success, failure);
    } catch (error) {
      notify('error', failure, saveFailureDetail(error));
    }
  };

  const onKey = (e: KeyboardEvent) => {
    if (e.key === 'Enter') void save();
    if (e.key === 'Escape') setDraft(null);
  };

  // A role that may not change the entity reads the value only.
  if (!may) return <>{stored}</>;
  return (
    <span className="value-action" data-unsaved={unsaved || undefined}>
      <input
        type={spec.kind === 'number' ? 'number' : 'text'}
        inputMode={spec.kind === 'number' ? 'numeric' : undefined}
        min={spec.min}
        value={draft ?? stored}
        aria-label={`${spec.label}: ${title}`}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={onKey}
      />
      <button
        type="button"
        className="icon-button"
        aria-label={`${action.saveLabel}: ${title}`}
        title={action.saveLabel}
        onClick={() => void save()}
      >
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
          <path
            fill="currentColor"
            d="M17 3H5a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h14a2 2 0 0 0 2-2V7l-4-4zm-5 16a3 3 0 1 1 0-6 3 3 0 0 1 0 6zm3-10H5V5h10v4z"
          />
        </svg>
      </button>
      {unsaved && <span className="unsaved">Not saved</span>}
      {unsaved && warning && (
        <span className="value-warning" role="status">
          {warning}
        </span>
      )}
    </span>
  );
}
