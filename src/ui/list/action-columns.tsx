import { Link } from '@tanstack/react-router';
import { Fragment } from 'react';
import type { EntityDescription, RowActions } from '../../contract/entity';
import type { ColumnView } from '../columns';
import type { Row } from '../data';

/** The row actions' columns: one per action, or one headed by the description's header. */
export function actionColumns(
  entity: EntityDescription,
  remove: (key: string) => void,
  given?: RowActions,
): ColumnView[] {
  const defaults: ('edit' | 'delete')[] = [];
  if (entity.api.update && entity.routes.edit) defaults.push('edit');
  if (entity.api.remove) defaults.push('delete');
  const { header, items } = given ?? entity.list.actions ?? { items: defaults };
  const cells = items.map((item) => {
    if (item === 'edit')
      return {
        label: 'Edit',
        cell: (key: string) => (
          <Link to={`${entity.routes.edit}/$id`} params={{ id: key }} className="button button-small">
            Edit
          </Link>
        ),
      };
    if (item === 'delete')
      return {
        label: 'Delete',
        cell: (key: string) => (
          <button type="button" className="button button-small button-danger" onClick={() => remove(key)}>
            Delete
          </button>
        ),
      };
    return {
      label: item.label,
      cell: (key: string) => (
        <Link to={`${item.to}/$id`} params={{ id: key }} className="button button-small button-light">
          {item.label}
        </Link>
      ),
    };
  });
  const keyOf = (row: Row) => String(row[entity.key]);
  if (header === undefined)
    return cells.map((c) => ({ header: c.label, cell: (row: Row) => c.cell(keyOf(row)) }));
  return [
    {
      header,
      cell: (row: Row) => (
        <span className="actions">
          {cells.map((c) => (
            <Fragment key={c.label}>{c.cell(keyOf(row))}</Fragment>
          ))}
        </span>
      ),
    },
  ];
}
