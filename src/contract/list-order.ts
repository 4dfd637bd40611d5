/**
 * Which list columns sort, by what, and how their values compare (every column that has an
 * order sorts from its header). Derived from the description, so a new entity's list
 * sorts without a word more: a text column sorts by its first field, a date column by its
 * date, a toggle by its value (Enabled, Disabled), a value action by its number, a location by
 * the city it names first. Images, fixed text, buttons, links and sets have no order.
 *
 * How values compare, by the field's kind: the key and numbers numerically (ids are text
 * locally; records made on this device, whose temporary ids are not numbers, come after the
 * server's), dates by their time, a status by its value, and everything else (names, codes,
 * parents' names, a choice by the name it shows) by the locale's collation with numbers inside
 * text compared as numbers ('T2' before 'T10').
 */
import type { EntityDescription, ListColumn } from './entity';

export type OrderKind = 'number' | 'date' | 'value' | 'text';

export interface ColumnOrder {
  field: string;
  kind: OrderKind;
}

/** How the values of one of the entity's fields (or the key, or a parent's name) compare. */
export function fieldOrder(entity: EntityDescription, field: string): OrderKind {
  if (field === entity.key) return 'number';
  switch (entity.fields[field]?.kind) {
    case 'number':
      return 'number';
    case 'date':
      return 'date';
    case 'status':
      return 'value';
    default:
      return 'text';
  }
}

/** The order of one list column, or null for a column without one. */
export function columnOrder(entity: EntityDescription, column: ListColumn): ColumnOrder | null {
  const by = (field: string) => ({ field, kind: fieldOrder(entity, field) });
  switch (column.kind) {
    case undefined:
    case 'text':
    case 'date':
      return by(column.field);
    case 'location':
      return by(column.city);
    case 'action': {
      const action = entity.actions?.[column.action];
      return action ? by(action.field) : null;
    }
    default:
      return null;
  }
}

/**
 * Every field a list of this entity may sort by: the key (the S.no column), its default order,
 * its columns', and those of a picker listing it (the books of /bookpages).
 */
export function sortFields(entity: EntityDescription, all: readonly EntityDescription[]): ColumnOrder[] {
  const columns = [
    ...entity.list.columns,
    ...all.flatMap((child) => {
      const within = child.routes.within;
      return within?.picker && child.fields[within.field]?.ref === entity.name ? within.picker.columns : [];
    }),
  ];
  const orders = [
    { field: entity.key, kind: fieldOrder(entity, entity.key) },
    { field: entity.list.sort.field, kind: fieldOrder(entity, entity.list.sort.field) },
    ...columns.map((c) => columnOrder(entity, c)).filter((o) => o !== null),
  ];
  return orders.filter((o, i) => orders.findIndex((p) => p.field === o.field) === i);
}

export { type ParentNameField, parentNameFields } from './parent-names';

/** The page sizes every list offers ('Show 10 / 25 / 50 / 100 entries'), its default among them. */
export const PAGE_SIZES: readonly number[] = [10, 25, 50, 100];

export function pageSizesOf(entity: EntityDescription): readonly number[] {
  const sizes = entity.list.pageSizes ?? PAGE_SIZES;
  return sizes.includes(entity.list.pageSize)
    ? sizes
    : [entity.list.pageSize, ...sizes].sort((a, b) => a - b);
}
