/**
 * Choosing the books a bulk Assign or Remove applies (as the assignment screen lists them: a
 * search, each book with its parents' names). A modal dialog; nothing is queued until its
 * button is pressed.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { choicesOf } from '../../app/bulk';
import type { EntityDescription } from '../../contract/entity';
import { parentNamesText } from '../../contract/parent-names';
import { shownChoices } from '../assign/choices';
import type { Row } from '../data';

export function BookChooser({
  target,
  title,
  confirm,
  onChoose,
  onCancel,
}: {
  target: EntityDescription;
  title: string;
  confirm: string;
  onChoose: (ids: readonly string[]) => void;
  onCancel: () => void;
}) {
  const dialog = useRef<HTMLDialogElement>(null);
  const headingId = useId();
  const [choices, setChoices] = useState<Row[] | null>(null);
  const [ticked, setTicked] = useState<ReadonlySet<string>>(() => new Set());
  const [search, setSearch] = useState('');
  useEffect(() => {
    dialog.current?.showModal();
    void choicesOf(target).then(setChoices);
  }, [target]);
  const shown = useMemo(() => shownChoices(target, choices ?? [], search), [choices, search, target]);
  const toggle = (key: string) =>
    setTicked((all) => {
      const next = new Set(all);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });

  return (
    <dialog ref={dialog} className="bulk-chooser" aria-labelledby={headingId} onCancel={onCancel}>
      <h2 id={headingId}>{title}</h2>
      <input
        type="search"
        className="search"
        aria-label={`Search ${target.names.many}`}
        placeholder={`Search ${target.names.many}`}
        value={search}
        onChange={(e) => setSearch(e.target.value)}
      />
      <ul className="bulk-choices" aria-busy={choices === null}>
        {shown.map((row) => {
          const key = String(row[target.key]);
          const label = String(row[target.title] ?? '');
          const parents = parentNamesText(target, row);
          return (
            <li key={key}>
              <label className="check-line">
                <input
                  type="checkbox"
                  className="check-line-box"
                  checked={ticked.has(key)}
                  onChange={() => toggle(key)}
                />
                <span>
                  {label}
                  {parents && <small className="muted block">{parents}</small>}
                </span>
              </label>
            </li>
          );
        })}
        {choices && shown.length === 0 && <li className="empty">No {target.names.many} found.</li>}
      </ul>
      <p className="muted" aria-live="polite">
        {ticked.size} {ticked.size === 1 ? target.names.one : target.names.many} ticked
      </p>
      <div className="form-actions">
        <button
          type="button"
          className="button"
          disabled={ticked.size === 0}
          onClick={() => onChoose([...ticked])}
        >
          {confirm}
        </button>
        <button type="button" className="button button-light" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </dialog>
  );
}
