import { useState } from 'react';
import { type BulkChange, type BulkOutcome, matchingKeys, queueBulk, undoQueuedBulk } from '../../app/bulk';
import type { EntityDescription } from '../../contract/entity';
import type { PageQuery } from '../../db/queries';
import { useNotify } from '../notices';
import { saveFailureDetail } from '../save-failure';
import { bulkTexts as t } from './bulk-texts';

/** A row an action left as it was, and why. */
export interface Refused {
  name: string;
  reason: string;
}

/** What a bulk action says when it is done: the notice's text and its detail. */
export type BulkSaid = (o: BulkOutcome) => [text: string, detail?: string];

/**
 * Running the bar's actions on the selection: what is going on now (`busy`, shown in place of
 * the count), the rows the last action refused, 'Select all N matching', and `run`, which
 * queues one change per selected row, reports it in one notice with Undo and keeps the rows a
 * delete refused selected.
 */
export function useBulkRun(
  entity: EntityDescription,
  query: PageQuery,
  selected: ReadonlySet<string>,
  onSelect: (keys: ReadonlySet<string>) => void,
) {
  const notify = useNotify();
  const [busy, setBusy] = useState<string | null>(null);
  const [refused, setRefused] = useState<Refused[]>([]);
  const [refusedDelete, setRefusedDelete] = useState(true);
  const names = entity.names;

  const selectAll = async () => {
    setBusy(t.selecting);
    try {
      onSelect(new Set(await matchingKeys(entity, query)));
    } finally {
      setBusy(null);
    }
  };

  const run = async (change: BulkChange, said: BulkSaid) => {
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

  return { busy, refused, refusedDelete, selectAll, run };
}
