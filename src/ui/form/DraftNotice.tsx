import { useEffect, useRef } from 'react';
import type { Draft } from '../../app/drafts';
import type { EntityDescription } from '../../contract/entity';
import type { FormValues } from './form-values';

/** Writes the form's values to its draft after each change (not when the form opens). */
export function useKeptAsDraft(values: FormValues, keep: (values: FormValues) => void): void {
  const opened = useRef(values);
  const keepRef = useRef(keep);
  keepRef.current = keep;
  useEffect(() => {
    if (values !== opened.current) keepRef.current(values);
  }, [values]);
}

/** Says that a draft was brought back, asks for the files again, and offers to discard it. */
export function DraftNotice({
  draft,
  entity,
  onDiscard,
}: {
  draft: Draft;
  entity: EntityDescription;
  onDiscard: () => void;
}) {
  const files = Object.entries(draft.files).map(
    ([field, names]) => `${entity.fields[field]?.label ?? field} (${names.join(', ')})`,
  );
  return (
    <div className="draft-notice" role="status">
      <p>
        What you typed here on {new Date(draft.savedAt).toLocaleString()} was kept on this device and is shown
        below; it is not saved yet.
        {files.length > 0 && ` Choose again: ${files.join('; ')}.`}
      </p>
      <button type="button" className="button button-light button-small" onClick={onDiscard}>
        Discard draft
      </button>
    </div>
  );
}
