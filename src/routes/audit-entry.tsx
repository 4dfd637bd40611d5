/**
 * One entry of the audit trail as the history screen shows it, in words: what was done to which
 * record (by its name, a link to its form), by whom, when the server applied it and when it was
 * made on its device, and each changed field by its label in the form's order, before and after:
 * records referred to by name with their ids beside, dates in the administrator's locale, long
 * values shortened with the whole behind a disclosure.
 */
import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { type AuditNames, auditNames, BY_TRAIL_NAME, referredEntity } from '../app/audit/audit-names';
import type { AuditEntry } from '../contract/audit/audit-reply';
import type { AuditOp } from '../contract/audit/audit-trail';
import type { EntityDescription } from '../contract/entity';
import { originalNameColumn } from '../contract/original-file-name';
import { encodeRouteId } from '../ui/route-id';

const OP_WORDS: Record<AuditOp, string> = {
  add: 'Added',
  update: 'Updated',
  delete: 'Deleted',
  toggle: 'Switched',
  assign: 'Assigned',
  upload: 'Uploaded',
};

/** The entity's name on screen ('School'), or the trail's own for one this app does not know. */
export const entityLabel = (name: string) => BY_TRAIL_NAME.get(name)?.names.One ?? name;

/** A field's label, or a set's ('Assigned Books'), or the API's name for one the app does not know. */
function fieldLabel(entity: string, field: string): string {
  const e = BY_TRAIL_NAME.get(entity);
  return e?.fields[field]?.label ?? e?.relations?.[field]?.label ?? field;
}

const SHORT = 160;
const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

const when = (iso: string) => new Date(iso).toLocaleString();

/** A value as words: a time in the locale, a list joined, what is not text as JSON. */
function textOf(value: unknown): string {
  if (Array.isArray(value)) return value.map(textOf).join(', ');
  if (typeof value === 'string' && ISO_TIME.test(value) && !Number.isNaN(Date.parse(value)))
    return when(value);
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

function Value({ value }: { value: unknown }) {
  if (value === null || value === undefined) return <span className="muted">(none)</span>;
  const text = textOf(value);
  if (text === '') return <span className="muted">(empty)</span>;
  if (text.length <= SHORT) return <>{text}</>;
  return (
    <details className="audit-long">
      <summary>{text.slice(0, SHORT)}…</summary>
      {text}
    </details>
  );
}

/** Records referred to by id, each by its name on this device with its id beside. */
function Referred({ ids, titles }: { ids: unknown; titles: ReadonlyMap<string, string> | undefined }) {
  const list = (Array.isArray(ids) ? ids : [ids]).filter(
    (id) => id !== null && id !== undefined && id !== '',
  );
  if (list.length === 0) return <Value value={ids} />;
  return (
    <>
      {list.map((id, i) => {
        const title = titles?.get(String(id));
        return (
          <span key={String(id)}>
            {i > 0 && ', '}
            {title ?? `#${id}`}
            {title !== undefined && <small className="muted"> (ID {String(id)})</small>}
          </span>
        );
      })}
    </>
  );
}

/** The columns that keep file fields' original names: shown with their file, not as rows. */
const originalColumns = (entity: EntityDescription | undefined) =>
  new Set(
    Object.entries(entity?.fields ?? {})
      .filter(([, spec]) => spec.kind === 'file')
      .map(([field]) => originalNameColumn(field)),
  );

/** The changed fields in the form's order, then the others (sets, fields the form leaves out). */
function ordered(entity: EntityDescription | undefined, changes: AuditEntry['changes']) {
  const rank = (field: string) => {
    const at = entity?.form.indexOf(field) ?? -1;
    return at < 0 ? Number.MAX_SAFE_INTEGER : at;
  };
  const originals = originalColumns(entity);
  return Object.entries(changes)
    .filter(([field]) => !originals.has(field))
    .sort(([a], [b]) => rank(a) - rank(b));
}

/** A stored file by the name it had on the device, its stored name beside; else as stored. */
function FileValue({ stored, original }: { stored: unknown; original: unknown }) {
  if (typeof original !== 'string' || original === '' || typeof stored !== 'string' || stored === '')
    return <Value value={stored} />;
  return (
    <>
      {original} <small className="muted">(stored as {stored})</small>
    </>
  );
}

/** One changed field's before or after: referred records by name, files by their own names. */
function Changed(props: {
  entity: EntityDescription | undefined;
  field: string;
  value: unknown;
  original: unknown;
  names: AuditNames;
}) {
  const { entity, field, value, original, names } = props;
  const target = entity ? referredEntity(entity, field) : null;
  if (target) return <Referred ids={value} titles={names.get(target)} />;
  if (entity?.fields[field]?.kind === 'file') return <FileValue stored={value} original={original} />;
  return <Value value={value} />;
}

/** The record the entry is about: its name and a link to its form where it has one. */
function RecordName({ entry, names }: { entry: AuditEntry; names: AuditNames }) {
  const entity = BY_TRAIL_NAME.get(entry.entity);
  const title = entity ? names.get(entity.name)?.get(entry.recordId) : undefined;
  const shown = title ? `“${title}”` : entry.recordId;
  const edit = entity?.routes.edit;
  const linked = edit && title !== undefined && entry.op !== 'delete';
  return (
    <>
      {entityLabel(entry.entity)}{' '}
      {linked ? <Link to={`${edit}/${encodeRouteId(entry.recordId)}`}>{shown}</Link> : shown}
      {title !== undefined && <small className="muted"> (ID {entry.recordId})</small>}
    </>
  );
}

/** The names of the records a page of entries is about and refers to, read once the page is there. */
export function useAuditNames(entries: readonly AuditEntry[] | undefined): AuditNames {
  const [names, setNames] = useState<AuditNames>(new Map());
  const key = entries?.map((e) => e.id).join(',') ?? '';
  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` stands for the entries
  useEffect(() => {
    if (!entries?.length) return;
    let current = true;
    void auditNames(entries).then((found) => {
      if (current) setNames(found);
    });
    return () => {
      current = false;
    };
  }, [key]);
  return names;
}

export function AuditEntryView({ entry, names }: { entry: AuditEntry; names: AuditNames }) {
  const entity = BY_TRAIL_NAME.get(entry.entity);
  const changes = ordered(entity, entry.changes);
  return (
    <li className="audit-entry">
      <p className="audit-head">
        <strong>{OP_WORDS[entry.op]}</strong> <RecordName entry={entry} names={names} />
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
            {changes.map(([field, [before, after]]) => {
              const [originalBefore, originalAfter] = entry.changes[originalNameColumn(field)] ?? [];
              const shared = { entity, field, names };
              return (
                <tr key={field}>
                  <th scope="row">{fieldLabel(entry.entity, field)}</th>
                  <td>
                    <Changed {...shared} value={before} original={originalBefore} />
                  </td>
                  <td>
                    <Changed {...shared} value={after} original={originalAfter} />
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
    </li>
  );
}
