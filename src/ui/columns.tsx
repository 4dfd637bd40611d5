/**
 * A list's columns as the screen draws them, from the description's `list.columns`: a header,
 * how a row's cell looks, and the field its header sorts by. Text cells show choice codes
 * by name and join `also` fields ('Class / Subject / Series'), with further fields in small
 * type under them (a question's options); image cells show a thumbnail of the local Blob or
 * the stored file, which may open the image large (a page scan); action cells are a toggle's
 * button (Make Popular, a status) or a value's input with its save button (a page number);
 * link cells carry row values to another screen (Add Question); fixed cells say the same on
 * every row (Resource Tagged: Yes).
 */
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { saveChange } from '../app/records';
import {
  type ColumnPriority,
  choiceLabel,
  type EntityDescription,
  isValueAction,
  type ListColumn,
  type ToggleAction,
} from '../contract/entity';
import { columnOrder } from '../contract/list-order';
import type { Row } from './data';
import { useFileUrl } from './fields/file-url';
import { useLookups } from './list/column-lookups';
import { ImageThumbnail } from './list/ImageThumbnail';
import { ValueActionCell } from './list/ValueActionCell';
import { useMayChange } from './may-change';
import { useNotify } from './notices';
import { reportOutcome } from './report-outcome';
import { saveFailureDetail } from './save-failure';

export interface ColumnView {
  header: string;
  cell: (row: Row) => ReactNode;
  /** The field the header's button sorts by; none: the column has no order. */
  sortField?: string;
  /** The column that names the row: kept in view when the table scrolls, a card's title. */
  primary?: boolean;
  /** Where it stands on a narrow tablet (contract ListColumn.priority; default 'high'). */
  priority?: ColumnPriority;
}

function Thumbnail({
  entity,
  field,
  row,
  width,
  round,
}: {
  entity: EntityDescription;
  field: string;
  row: Row;
  width: number;
  round?: boolean;
}) {
  const url = useFileUrl(entity.fields[field]?.file, row[field]);
  return url ? (
    <img src={url} alt="" width={width} className={round ? 'thumb thumb-round' : 'thumb'} />
  ) : null;
}

/**
 * A field action's button: it says Disable when the value is Enabled and Enable otherwise,
 * and sends the NEW value (api-contract §5), with the action's own notices.
 */
function ActionButton({
  entity,
  action: name,
  row,
}: {
  entity: EntityDescription;
  action: string;
  row: Row;
}) {
  const notify = useNotify();
  const may = useMayChange(entity);
  const action = entity.actions?.[name] as ToggleAction | undefined;
  if (!action) return null;
  // A role that may not change it reads the value where the button would be.
  if (!may) return <>{String(row[action.field] ?? '')}</>;
  const enabled = row[action.field] === 'Enabled';
  const next = enabled ? 'Disabled' : 'Enabled';
  const toggle = async () => {
    const [success, failure] = action.messages[next];
    try {
      const key = String(row[entity.key]);
      const { entryId } = await saveChange({ op: 'set', entity, key, action: name, value: next });
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

function LocationCell({ country, state, city }: { country: unknown; state: unknown; city: unknown }) {
  return <>{useLookups().location(country, state, city)}</>;
}

function SetCell({ target, ids }: { target: string; ids: unknown }) {
  return <>{useLookups().titles(target, ids)}</>;
}

const longDate = (value: unknown) => {
  const date = new Date(String(value ?? ''));
  return Number.isNaN(date.getTime())
    ? ''
    : date.toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' });
};

/**
 * A text column: the field and those shown with it (choices by their labels), and its small
 * fields listed under the value where not empty.
 */
function textView(entity: EntityDescription, column: Extract<ListColumn, { kind?: 'text' }>): ColumnView {
  const fields = [column.field, ...(column.also ?? [])];
  const shown = (row: Row, f: string) => {
    const spec = entity.fields[f];
    return spec?.kind === 'choice' ? choiceLabel(spec, row[f]) : String(row[f] ?? '');
  };
  const text = (row: Row) =>
    fields
      .map((f) => shown(row, f))
      .filter((v) => v !== '')
      .join(column.separator ?? ' / ');
  const small = column.small ?? [];
  const cell =
    small.length === 0
      ? text
      : (row: Row) => {
          const more = small.map((f) => [f, shown(row, f)]).filter(([, v]) => v !== '');
          return (
            <>
              {text(row)}
              {more.length > 0 && (
                <ul className="cell-small">
                  {more.map(([f, v]) => (
                    <li key={f}>
                      {entity.fields[f]?.label ?? f}: {v}
                    </li>
                  ))}
                </ul>
              )}
            </>
          );
        };
  const primary = column.primary ?? column.field === entity.title;
  return { header: column.header, cell, primary };
}

function view(entity: EntityDescription, column: ListColumn): ColumnView {
  switch (column.kind) {
    case 'image':
      return {
        header: column.header,
        cell: (row) =>
          column.opens ? (
            <ImageThumbnail
              rule={entity.fields[column.field]?.file}
              value={row[column.field]}
              width={column.width ?? 50}
              label={`${column.header}: ${String(row[entity.title] ?? '')}`}
            />
          ) : (
            <Thumbnail
              entity={entity}
              field={column.field}
              row={row}
              width={column.width ?? 50}
              round={column.round}
            />
          ),
      };
    case 'fixed':
      return { header: column.header, cell: () => column.text };
    case 'date':
      return { header: column.header, cell: (row) => longDate(row[column.field]) };
    case 'action': {
      const action = entity.actions?.[column.action];
      if (action && isValueAction(action))
        return {
          header: column.header,
          cell: (row) => <ValueActionCell entity={entity} name={column.action} action={action} row={row} />,
        };
      return {
        header: column.header,
        cell: (row) => <ActionButton entity={entity} action={column.action} row={row} />,
      };
    }
    case 'link':
      return {
        header: column.header,
        cell: (row) => (
          <Link
            to={column.to}
            search={
              Object.fromEntries(
                Object.entries(column.search ?? {}).map(([k, f]) => [k, String(row[f] ?? '')]),
              ) as never
            }
            className="button button-small"
          >
            {column.label}
          </Link>
        ),
      };
    case 'location':
      return {
        header: column.header,
        cell: (row) => (
          <LocationCell country={row[column.country]} state={row[column.state]} city={row[column.city]} />
        ),
      };
    case 'relation': {
      const target = entity.relations?.[column.relation]?.target ?? '';
      return { header: column.header, cell: (row) => <SetCell target={target} ids={row[column.relation]} /> };
    }
    default:
      return textView(entity, column);
  }
}

/**
 * The description's own columns, each sorting by its order where it has one
 * (contract/list-order.ts) and keeping its priority on a tablet (RowMore.tsx).
 */
export function columnViews(entity: EntityDescription): ColumnView[] {
  return entity.list.columns.map((c) => ({
    ...view(entity, c),
    sortField: columnOrder(entity, c)?.field,
    priority: c.priority,
  }));
}
