/**
 * The bar of actions for a list's selection: how many are selected, 'Select all N matching'
 * once a page is selected, and the actions the entity has: Enable / Disable selected (a status
 * toggle), Delete selected (confirmed first; rows still used are reported with the reason and
 * stay selected), Assign / Remove books (a set relation). Each action queues one change per
 * row (src/app/bulk.ts) and ends in ONE notice with Undo.
 */
import { useState } from 'react';
import { entityByName } from '../../contract/entities';
import type { EntityDescription } from '../../contract/entity';
import type { PageQuery } from '../../db/queries';
import { BookChooser } from './BookChooser';
import { BulkActions } from './BulkActions';
import { bulkTexts as t } from './bulk-texts';
import { RefusedReport } from './RefusedReport';
import { useBulkRun } from './use-bulk-run';

/** The entity's Enabled/Disabled toggle, when it has one (schools, teachers, students). */
function statusAction(entity: EntityDescription): string | null {
  const action = entity.actions?.status;
  return action && 'messages' in action && action.messages.Enabled && action.messages.Disabled
    ? 'status'
    : null;
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
  const { busy, refused, refusedDelete, selectAll, run } = useBulkRun(entity, query, selected, onSelect);
  const [choosing, setChoosing] = useState<'add-to-set' | 'remove-from-set' | null>(null);
  const status = statusAction(entity);
  const relation = Object.keys(entity.relations ?? {})[0];
  const target = relation ? entityByName(entity.relations?.[relation]?.target ?? '') : null;
  const names = entity.names;

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
  const ofSelected = `${selected.size} ${selected.size === 1 ? names.one : names.many}`;
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
      <BulkActions
        entity={entity}
        target={target}
        hasStatus={status !== null}
        disabled={busy !== null}
        onStatus={setStatus}
        onChoose={setChoosing}
        onDelete={remove}
      />
      {refused.length > 0 && <RefusedReport refused={refused} byDelete={refusedDelete} />}
      {choosing && target && (
        <BookChooser
          target={target}
          title={`${choosing === 'add-to-set' ? 'Assign' : 'Remove'} ${target.names.many}`}
          confirm={choosing === 'add-to-set' ? `Assign to ${ofSelected}` : `Remove from ${ofSelected}`}
          onChoose={(ids) => relate(choosing, ids)}
          onCancel={() => setChoosing(null)}
        />
      )}
    </section>
  );
}
