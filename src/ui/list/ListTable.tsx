import { Link } from '@tanstack/react-router';
import type { ReactNode, RefObject } from 'react';
import type { EntityDescription } from '../../contract/entity';
import type { BulkSelection } from '../bulk/selection';
import type { ColumnView } from '../columns';
import type { ListResult, Row } from '../data';
import { ScrollTable } from '../ScrollTable';
import { ColumnLookups } from './column-lookups';
import { priorityClass, RowMore } from './RowMore';
import { SortHeader } from './SortHeader';
import { useFilesSending } from './use-files-sending';

type Order = { field: string; dir: 'asc' | 'desc' };

/** The texts of the table: its label, the S.no header and the empty list's sentence. */
interface TableTexts {
  listTitle: string;
  sno: string;
  empty: string;
}

/** A column's header: a sort button where the column sorts, else plain text. */
function columnHeader(c: ColumnView, order: Order, onSort: (field: string) => void): ReactNode {
  return c.sortField ? (
    <SortHeader
      key={c.header}
      className={priorityClass(c.priority)}
      header={c.header}
      field={c.sortField}
      sort={order}
      onSort={onSort}
    />
  ) : (
    <th scope="col" key={c.header} className={priorityClass(c.priority)}>
      {c.header}
    </th>
  );
}

/** The name column stands out; action columns are actions; others hide by their priority. */
function cellClass(index: number, primary: number, ownCount: number, c: ColumnView): string | undefined {
  if (index === primary) return 'cell-primary';
  return index >= ownCount ? 'cell-action' : priorityClass(c.priority);
}

/**
 * One record's row: its selection box, S.no, cells, and on the name cell the pending mark, or
 * for a change that met another on the server a link to the outbox, where the choice is made.
 */
function ListRow({
  row,
  sno,
  snoLabel,
  own,
  columns,
  primary,
  pending,
  sendingFile,
  isRevealed,
  rowRef,
  bulk,
}: {
  row: Row;
  sno: number;
  snoLabel: string;
  own: readonly ColumnView[];
  columns: readonly ColumnView[];
  primary: number;
  /** A change waits for the server ('choice': it met another there and waits for a choice). */
  pending: boolean | 'choice';
  /** The percent sent of the change's large file, while it is being sent. */
  sendingFile: number | undefined;
  isRevealed: boolean;
  rowRef: RefObject<HTMLTableRowElement | null> | undefined;
  bulk: BulkSelection;
}) {
  return (
    <tr ref={rowRef} data-pending={pending || undefined} data-revealed={isRevealed || undefined}>
      {bulk.cell(row)}
      <td data-label={snoLabel} className="cell-sno">
        {sno}
      </td>
      {columns.map((c, ci) => (
        <td key={c.header} data-label={c.header} className={cellClass(ci, primary, own.length, c)}>
          {c.cell(row)}
          {ci === primary && pending === 'choice' && (
            <Link to="/outbox" className="pending pending-link pending-choice">
              Needs your choice
            </Link>
          )}
          {ci === primary && pending === true && sendingFile !== undefined && (
            <Link to="/outbox" className="pending pending-link">
              Sending file {sendingFile}%
            </Link>
          )}
          {ci === primary && pending === true && sendingFile === undefined && (
            <span className="pending" title="Saved on this device, not yet confirmed by the server">
              Pending
            </span>
          )}
          {ci === primary && <RowMore row={row} columns={own} />}
        </td>
      ))}
    </tr>
  );
}

/**
 * The list's table: the headers (sorting where a column sorts), a row per record of the page
 * numbered from `first`, the row just added marked, and the empty text when there are none.
 */
export function ListTable({
  entity,
  texts,
  own,
  columns,
  order,
  onSort,
  result,
  first,
  revealed,
  revealedRow,
  bulk,
}: {
  entity: EntityDescription;
  texts: TableTexts;
  /** The entity's own columns (before the row actions). */
  own: readonly ColumnView[];
  columns: readonly ColumnView[];
  order: Order;
  onSort: (field: string) => void;
  result: ListResult | undefined;
  first: number;
  revealed: string | null;
  revealedRow: RefObject<HTMLTableRowElement | null>;
  bulk: BulkSelection;
}) {
  // The name column: the one marked, else the first.
  const primary = Math.max(
    0,
    own.findIndex((c) => c.primary),
  );
  const filesSending = useFilesSending(entity.name);
  return (
    <ScrollTable label={texts.listTitle}>
      <ColumnLookups entity={entity}>
        <table className="table table-cards">
          <thead>
            <tr>
              {bulk.header}
              {columnHeader({ header: texts.sno, sortField: entity.key, cell: () => null }, order, onSort)}
              {columns.map((c) => columnHeader(c, order, onSort))}
            </tr>
          </thead>
          <tbody aria-busy={result === undefined}>
            {result?.rows.map((row, i) => {
              const key = String(row[entity.key]);
              const isRevealed = key === revealed;
              return (
                <ListRow
                  key={key}
                  row={row}
                  sno={first + i}
                  snoLabel={texts.sno}
                  own={own}
                  columns={columns}
                  primary={primary}
                  pending={result.choices.has(key) ? 'choice' : result.pending.has(key)}
                  sendingFile={filesSending.get(key)}
                  isRevealed={isRevealed}
                  rowRef={isRevealed ? revealedRow : undefined}
                  bulk={bulk}
                />
              );
            })}
            {result && result.rows.length === 0 && (
              <tr>
                <td colSpan={columns.length + (bulk.header ? 2 : 1)} className="empty">
                  {texts.empty}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </ColumnLookups>
    </ScrollTable>
  );
}
