/**
 * The bar of actions for a list's selection: how many are selected, 'Select all N matching'
 * once a page is selected, and the actions the entity has: Enable / Disable selected (a status
 * toggle), Delete selected (confirmed first; rows still used are reported with the reason and
 * stay selected), Assign / Remove books (a set relation). Each action queues one change per
 * row (src/app/bulk.ts) and ends in ONE notice with Undo.
 */
import { useState } from 'react';
import { type BulkChange, type BulkOutcome, matchingKeys, queueBulk, undoQueuedBulk } from '../../app/bulk';
import { entityByName } from '../../contract/entities';
import type { EntityDescription } from '../../contract/entity';
import type { PageQuery } from '../../db/queries';
import { useNotify } from '../notices';
import { saveFailureDetail } from '../save-failure';
import { BookChooser } from './BookChooser';
import { bulkTexts as t } from './bulk-texts';

/** The entity's Enabled/Disabled toggle, when it has one (schools, teachers, students). */
function statusAction(entity: EntityDescription): string | null {
  const action = entity.actions?.status;
  return action && 'messages' in action && action.messages.Enabled && action.messages.Disabled
    ? 'status'
    : null;
}

interface Refused {
  name: string;
  reason: string;
}

export function BulkBar({
  entity,
  query,
  selected,
  onSelect,
  total,
  pageSelected,
}: {
  entity: EntityDescription;
  query: PageQuery;
  selected: ReadonlySet<string>;
  onSelect: (keys: ReadonlySet<string>) => void;
  total: number;
  pageSelected: boolean;
}) {
  const notify = useNotify();
  const [busy, setBusy] = useState<string | null>(null);
  const [refused, setRefused] = useState<Refused[]>([]);
  const [refusedDelete, setRefusedDelete] = useState(true);
  const [choosing, setChoosing] = useState<'add-to-set' | 'remove-from-set' | null>(null);
  const status = statusAction(entity);
  const relation = Object.keys(entity.relations ?? {})[0];
  const target = relation ? entityByName(entity.relations?.[relation]?.target ?? '') : null;
  const names = entity.names;

  const selectAll = async () => {
    setBusy(t.selecting);
    try {
      onSelect(new Set(await matchingKeys(entity, query)));
    } finally {
      setBusy(null);
    }
  };

  const run = async (change: BulkChange, said: (o: BulkOutcome) => [text: string, detail?: string]) => {
    const keys = [...selected];
    setRefused([]);
    setBusy(t.queueing(0, keys.length));
    try {
      const outcome = await queueBulk(entity, keys, change, {
        onProgress: (done, all) => setBusy(t.queueing(done, all)),
      });
      if (change.op === 'delete') onSelect(new Set(outcome.refused.map((r) => r.key)));
      setRefusedDelete(change.op === 'delete');
      setRefused(outcome.refused.map(({ name, reason }) => ({ name, reason })));
      if (outcome.changed === 0) {
        notify('info', t.nothing(names), said(outcome)[1]);
        return;
      }
      const [text, detail] = said(outcome);
      notify('success', text, detail, {
        label: 'Undo',
        run: () => void undo(outcome),
      });
    } catch (error) {
      notify('error', t.failed(names), saveFailureDetail(error));
    } finally {
      setBusy(null);
    }
  };

  const undo = async (outcome: BulkOutcome) => {
    try {
      const { undone, kept } = await undoQueuedBulk(entity, outcome.undo);
      setRefused([]);
      notify('info', t.undone(undone, names), kept > 0 ? t.notUndone(kept) : undefined);
    } catch (error) {
      notify('error', t.failed(names), saveFailureDetail(error));
    }
  };

  const setStatus = (value: 'Enabled' | 'Disabled') =>
    status &&
    void run({ op: 'set', action: status, value }, (o) => [
      t.statusDone(o.changed, names, value),
      o.unchanged > 0 ? t.statusAlready(o.unchanged, value) : undefined,
    ]);

  const remove = () => {
    if (!window.confirm(t.confirmDelete(selected.size, names))) return;
    void run({ op: 'delete' }, (o) => [
      t.deleted(o.changed, names),
      o.refused.length > 0 ? t.notDeleted(o.refused.length) : undefined,
    ]);
  };

  const relate = (op: 'add-to-set' | 'remove-from-set', ids: readonly string[]) => {
    setChoosing(null);
    if (!relation || !target) return;
    void run({ op, relation, ids }, (o) =>
      op === 'add-to-set'
        ? [t.assigned(target.names, o.changed, names), o.unchanged > 0 ? t.hadThem(o.unchanged) : undefined]
        : [
            t.removed(target.names, o.changed, names),
            o.unchanged > 0 ? t.lackedThem(o.unchanged) : undefined,
          ],
    );
  };

  const allSelected = selected.size >= total && total > 0;
  return (
    <section className="bulk-bar" aria-label="Selected rows">
      <p className="bulk-count" role="status">
        {busy ??
          (allSelected && total > 0 && selected.size > 1 ? t.allSelected(total) : t.selected(selected.size))}
      </p>
      {pageSelected && !allSelected && (
        <button
          type="button"
          className="button button-small button-light"
          disabled={busy !== null}
          onClick={() => void selectAll()}
        >
          {t.selectAll(total)}
        </button>
      )}
      <button
        type="button"
        className="button button-small button-light"
        disabled={busy !== null}
        onClick={() => onSelect(new Set())}
      >
        {t.clear}
      </button>
      <span className="bulk-actions">
        {status && (
          <>
            <button
              type="button"
              className="button button-small"
              disabled={busy !== null}
              onClick={() => setStatus('Enabled')}
            >
              Enable selected
            </button>
            <button
              type="button"
              className="button button-small"
              disabled={busy !== null}
              onClick={() => setStatus('Disabled')}
            >
              Disable selected
            </button>
          </>
        )}
        {target && (
          <>
            <button
              type="button"
              className="button button-small"
              disabled={busy !== null}
              onClick={() => setChoosing('add-to-set')}
            >
              Assign {target.names.many}
            </button>
            <button
              type="button"
              className="button button-small"
              disabled={busy !== null}
              onClick={() => setChoosing('remove-from-set')}
            >
              Remove {target.names.many}
            </button>
          </>
        )}
        {entity.api.remove && (
          <button
            type="button"
            className="button button-small button-danger"
            disabled={busy !== null}
            onClick={remove}
          >
            Delete selected
          </button>
        )}
      </span>
      {refused.length > 0 && (
        <div className="bulk-report" role="alert">
          <strong>{refusedDelete ? t.notDeleted(refused.length) : t.notChanged(refused.length)}</strong>
          <ul>
            {refused.slice(0, 50).map((r, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a fixed report; names may repeat
              <li key={i}>
                {r.name}: {r.reason}
              </li>
            ))}
          </ul>
          {refused.length > 50 && <p>And {refused.length - 50} more.</p>}
          {refusedDelete && <p>They stay selected.</p>}
        </div>
      )}
      {choosing && target && (
        <BookChooser
          target={target}
          title={`${choosing === 'add-to-set' ? 'Assign' : 'Remove'} ${target.names.many}`}
          confirm={
            choosing === 'add-to-set'
              ? `Assign to ${selected.size} ${selected.size === 1 ? names.one : names.many}`
              : `Remove from ${selected.size} ${selected.size === 1 ? names.one : names.many}`
          }
          onChoose={(ids) => relate(choosing, ids)}
          onCancel={() => setChoosing(null)}
        />
      )}
    </section>
  );
}
