/**
 * Books list: the Make Popular column (spec §2). The button says Disable when the book is
 * popular (status Enabled) and Enable otherwise, and sends the NEW status (api-contract §5).
 */
import { bookEntity } from '../../contract/entities';
import { type Row, saveChange } from '../../ui/data';
import type { ExtraColumn } from '../../ui/ListScreen';
import { useNotify } from '../../ui/notices';
import { reportOutcome } from '../../ui/report-outcome';
import { saveFailureDetail } from '../../ui/save-failure';

function PopularButton({ row }: { row: Row }) {
  const notify = useNotify();
  const enabled = row.status === 'Enabled';
  const next = enabled ? 'Disabled' : 'Enabled';
  const action = bookEntity.actions.popular;
  const toggle = async () => {
    const [success, failure] = action.messages[next];
    try {
      const { entryId } = await saveChange({
        op: 'set',
        entity: bookEntity,
        key: String(row.book_id),
        action: 'popular',
        value: next,
      });
      await reportOutcome(notify, entryId, success, failure);
    } catch (error) {
      notify('error', failure, saveFailureDetail(error));
    }
  };
  return (
    <button type="button" className={`button button-small${enabled ? ' button-light' : ''}`} onClick={toggle}>
      {enabled ? 'Disable' : 'Enable'}
    </button>
  );
}

export const bookColumns: ExtraColumn[] = [
  { header: 'Make Popular', cell: (row) => <PopularButton row={row} /> },
];
