/**
 * Rule 5: a field changed both on this device and on the server, shown side by side for the
 * administrator to choose, field by field.
 */
import { useState } from 'react';
import { type Choice, type OutboxEntry, settleConflict } from '../app/outbox';
import { entityByName } from '../contract/entities';

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
            const label = entity.fields[f.field]?.label ?? f.field;
            const pick = (choice: Choice) => setChoices((all) => ({ ...all, [f.field]: choice }));
            return (
              <tr key={f.field}>
                <th scope="row">{label}</th>
                <td>
                  <label>
                    <input
                      type="radio"
                      name={`${entry.id}-${f.field}`}
                      checked={choices[f.field] === 'mine'}
                      onChange={() => pick('mine')}
                    />{' '}
                    {String(f.mine ?? '')}
                  </label>
                </td>
                <td>
                  <label>
                    <input
                      type="radio"
                      name={`${entry.id}-${f.field}`}
                      checked={choices[f.field] === 'theirs'}
                      onChange={() => pick('theirs')}
                    />{' '}
                    {String(f.theirs ?? '')}
                  </label>
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
