/**
 * Rule 5: a field changed both on this device and on the server, shown side by side for the
 * administrator to choose, field by field. Rich text (About Us, Terms, subject content) shows
 * as it reads, cleaned with the shared allowlist (SafeHtml), in a frame that scrolls.
 */
import { type ReactNode, useState } from 'react';
import { type Choice, type OutboxEntry, settleConflict } from '../../app/outbox/outbox-queue';
import { entityByName } from '../../contract/entities';
import type { FieldSpec } from '../../contract/entity';
import { SafeHtml } from '../safe-html/SafeHtml';

/** One side's value: a radio with the value as its label, or for rich text a radio and the text shown. */
function Side({
  name,
  spec,
  value,
  label,
  checked,
  onPick,
}: {
  name: string;
  spec: FieldSpec | undefined;
  value: unknown;
  label: string;
  checked: boolean;
  onPick: () => void;
}): ReactNode {
  if (spec?.kind !== 'richtext')
    return (
      <label>
        <input type="radio" name={name} checked={checked} onChange={onPick} /> {String(value ?? '')}
      </label>
    );
  return (
    <>
      <label>
        <input type="radio" name={name} checked={checked} onChange={onPick} /> Keep {label}
      </label>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling frame must be reachable by keyboard */}
      <section className="conflict-preview" aria-label={label} tabIndex={0}>
        <SafeHtml html={String(value ?? '')} />
      </section>
    </>
  );
}

export function ConflictPanel({ entry }: { entry: OutboxEntry }) {
  const entity = entityByName(entry.entity);
  const fields = entry.conflict?.fields ?? [];
  const [choices, setChoices] = useState<Record<string, Choice>>(() =>
    Object.fromEntries(fields.map((f) => [f.field, 'mine' as Choice])),
  );
  return (
    <fieldset className="conflict">
      <legend>Changed on the server since this edit began. Choose which value to keep:</legend>
      <table className="table">
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">This device</th>
            <th scope="col">Server</th>
          </tr>
        </thead>
        <tbody>
          {fields.map((f) => {
            const spec = entity.fields[f.field];
            const label = spec?.label ?? f.field;
            const pick = (choice: Choice) => setChoices((all) => ({ ...all, [f.field]: choice }));
            const name = `${entry.id}-${f.field}`;
            return (
              <tr key={f.field}>
                <th scope="row">{label}</th>
                <td>
                  <Side
                    name={name}
                    spec={spec}
                    value={f.mine}
                    label="this device's version"
                    checked={choices[f.field] === 'mine'}
                    onPick={() => pick('mine')}
                  />
                </td>
                <td>
                  <Side
                    name={name}
                    spec={spec}
                    value={f.theirs}
                    label="the server's version"
                    checked={choices[f.field] === 'theirs'}
                    onPick={() => pick('theirs')}
                  />
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <button
        type="button"
        className="button button-small"
        onClick={() => void settleConflict(entry.seq, choices)}
      >
        Apply choices
      </button>
    </fieldset>
  );
}
