/**
 * On an edit form: its record was changed on another device while the form was open
 * (use-changed-elsewhere.ts). Names who and which fields; where the administrator changed a
 * field too, offers Reload (the new values) and Keep mine (what they typed), else only OK, as the
 * form already shows the new values.
 */
import type { EntityDescription } from '../../contract/entity';
import type { ChangedElsewhere } from './use-changed-elsewhere';

export function ChangedElsewhereNotice({
  entity,
  changes,
}: {
  entity: EntityDescription;
  changes: ChangedElsewhere;
}) {
  const { notice } = changes;
  if (!notice) return null;
  const labels = (fields: readonly string[]) => fields.map((f) => entity.fields[f]?.label ?? f).join(', ');
  const { who, fields, conflicts } = notice;
  const changed = who
    ? `${who} changed this ${entity.names.one} on another device: ${labels(fields)}.`
    : `This ${entity.names.one} was changed on another device: ${labels(fields)}.`;
  const value = conflicts.length === 1 ? 'value' : 'values';
  const after =
    conflicts.length > 0
      ? `You changed ${labels(conflicts)} here too: Reload shows the new ${value}, Keep mine keeps yours.`
      : notice.typedElsewhere
        ? 'The form shows the new values; what you typed in other fields is kept.'
        : 'The form shows the new values.';
  return (
    <div className="banner changed-elsewhere" role="status">
      <p>
        {changed} {after}
      </p>
      {conflicts.length > 0 ? (
        <span className="changed-elsewhere-actions">
          <button type="button" className="button button-small" onClick={changes.reload}>
            Reload
          </button>
          <button type="button" className="button button-light button-small" onClick={changes.keepMine}>
            Keep mine
          </button>
        </span>
      ) : (
        <button type="button" className="button button-light button-small" onClick={changes.dismiss}>
          OK
        </button>
      )}
    </div>
  );
}
