/**
 * One entry of the audit trail as the history screen shows it: what was done to which record,
 * by whom, when the server applied it and when it was made on its device, and each changed
 * field's value before and after (long values shortened, the whole behind a disclosure).
 */
import type { AuditEntry } from '../contract/audit/audit-reply';
import type { AuditOp } from '../contract/audit/audit-trail';
import { auditEntityName } from '../contract/audit/audit-trail';
import { entities } from '../contract/entities';

const OP_WORDS: Record<AuditOp, string> = {
  add: 'Added',
  update: 'Updated',
  delete: 'Deleted',
  toggle: 'Switched',
  assign: 'Assigned',
  upload: 'Uploaded',
};

/** Entities by the name the trail gives them. */
const BY_TRAIL_NAME = new Map(entities.map((e) => [auditEntityName(e), e]));

/** The entity's name on screen ('School'), or the trail's own for one this app does not know. */
export const entityLabel = (name: string) => BY_TRAIL_NAME.get(name)?.names.One ?? name;

/** A field's label, or a set's ('Assigned Books'), or the API's name for one the app does not know. */
function fieldLabel(entity: string, field: string): string {
  const e = BY_TRAIL_NAME.get(entity);
  return e?.fields[field]?.label ?? e?.relations?.[field]?.label ?? field;
}

const SHORT = 160;

function Value({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span className="muted">(none)</span>;
  const text = Array.isArray(value)
    ? value.join(', ')
    : typeof value === 'object'
      ? JSON.stringify(value)
      : String(value);
  if (text === '') return <span className="muted">(empty)</span>;
  if (text.length <= SHORT) return <>{text}</>;
  return (
    <details className="audit-long">
      <summary>{text.slice(0, SHORT)}…</summary>
      {text}
    </details>
  );
}

const when = (iso: string) => new Date(iso).toLocaleString();

export function AuditEntryView({ entry }: { entry: AuditEntry }) {
  const changes = Object.entries(entry.changes);
  return (
    <li className="audit-entry">
      <p className="audit-head">
        <strong>{OP_WORDS[entry.op]}</strong> {entityLabel(entry.entity)} {entry.recordId}
        <span className="muted"> by {entry.admin ?? 'an administrator no longer known'}</span>
      </p>
      <p className="audit-when">
        Applied {when(entry.at)}
        {entry.madeAt && <> · made on the device {when(entry.madeAt)}</>}
        {entry.device && <> · device {entry.device.slice(0, 8)}</>}
      </p>
      {changes.length === 0 ? (
        <p className="muted">No field changed.</p>
      ) : (
        <table className="audit-changes">
          <thead>
            <tr>
              <th scope="col">Field</th>
              <th scope="col">Before</th>
              <th scope="col">After</th>
            </tr>
          </thead>
          <tbody>
            {changes.map(([field, [before, after]]) => (
              <tr key={field}>
                <th scope="row">{fieldLabel(entry.entity, field)}</th>
                <td>
                  <Value value={before} />
                </td>
                <td>
                  <Value value={after} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </li>
  );
}
