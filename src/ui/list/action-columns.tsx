import { Link } from '@tanstack/react-router';
import { Fragment } from 'react';
import { mayOpen } from '../../app/accounts/role';
import { mayChange, type Role } from '../../contract/accounts/roles';
import type { EntityDescription, RowActions } from '../../contract/entity';
import type { ColumnView } from '../columns';
import type { Row } from '../data';

/**
 * The row actions' columns: one per action, or one headed by the description's header. For a
 * role that may not change the entity, Edit becomes View (the form opens read-only), Delete
 * goes, and so does a link to a screen the role may not use (Assign Books).
 */
export function actionColumns(
  entity: EntityDescription,
  remove: (key: string, title: string) => void,
  given: RowActions | undefined,
  role: Role,
): ColumnView[] {
  const may = mayChange(role, entity);
  const defaults: ('edit' | 'delete')[] = [];
  if (entity.api.update && entity.routes.edit) defaults.push('edit');
  if (entity.api.remove) defaults.push('delete');
  const { header, items: all } = given ?? entity.list.actions ?? { items: defaults };
  const items = all.filter((item) =>
    item === 'edit' ? true : item === 'delete' ? may : mayOpen(role, item.to),
  );
  if (items.length === 0) return [];
  const keyOf = (row: Row) => String(row[entity.key]);
  const cells = items.map((item) => {
    if (item === 'edit')
      return {
        label: may ? 'Edit' : 'View',
        cell: (row: Row) => (
          <Link to={`${entity.routes.edit}/$id`} params={{ id: keyOf(row) }} className="button button-small">
            {may ? 'Edit' : 'View'}
          </Link>
        ),
      };
    if (item === 'delete')
      return {
        label: 'Delete',
        cell: (row: Row) => (
          <button
            type="button"
            className="button button-small button-danger"
            onClick={() => remove(keyOf(row), String(row[entity.title] ?? ''))}
          >
            Delete
          </button>
        ),
      };
    return {
      label: item.label,
      cell: (row: Row) => (
        <Link to={`${item.to}/$id`} params={{ id: keyOf(row) }} className="button button-small button-light">
          {item.label}
        </Link>
      ),
    };
  });
  if (header === undefined) return cells.map((c) => ({ header: c.label, cell: c.cell }));
  return [
    {
      header,
      cell: (row: Row) => (
        <span className="actions">
          {cells.map((c) => (
            <Fragment key={c.label}>{c.cell(row)}</Fragment>
          ))}
        </span>
      ),
    },
  ];
}
