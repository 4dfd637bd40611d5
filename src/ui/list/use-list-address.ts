import { useParams, useSearch } from '@tanstack/react-router';
import type { ListQuery } from '../../app/records';
import type { EntityDescription, ListFilter } from '../../contract/entity';
import { pageSizesOf } from '../../contract/list-order';
import type { ColumnView } from '../columns';
import type { ListSearch } from './list-search';

type Sort = NonNullable<ListQuery['sort']>;

/** What a list's address asks: its filters chosen, its order and the list query. */
export interface AskedList {
  chosen: Record<string, string>;
  sort: Sort | undefined;
  query: ListQuery;
}

/** A list's address (search, order, filters, page, size and the parent it lives inside). */
export interface ListAddress extends AskedList {
  params: ListSearch;
  /** The field naming the parent a list inside one parent shows (a book's pages). */
  within: string | undefined;
  /** The parent's id, for a list inside one parent; else null. */
  parentId: string | null;
  /** Filters by a fixed value (teachers' status), kept in the URL; none chosen is 'All'. */
  valueFilters: readonly ListFilter[];
  sizes: readonly number[];
  /** The list query an address's search asks (the address now, or the one a click goes to). */
  queryOf(p: ListSearch): AskedList;
}

/** Reads the list's address and the list query it asks, for the columns shown (`own`). */
export function useListAddress(entity: EntityDescription, own: readonly ColumnView[]): ListAddress {
  const params = useSearch({ strict: false }) as ListSearch;
  const { id: rawParent } = useParams({ strict: false }) as { id?: string };
  const within = entity.routes.within?.field;
  // Decoded by the router (route-id.ts: routeIdParams).
  const parentId = within ? (rawParent ?? '') : null;
  // The order chosen by a header (kept in the URL), when a column sorts by that field.
  const sortsBy = new Set([entity.key, ...own.flatMap((c) => (c.sortField ? [c.sortField] : []))]);
  const valueFilters = (entity.filters ?? []).filter((f) => f.values);
  const sizes = pageSizesOf(entity);
  const queryOf = (p: ListSearch): AskedList => {
    const sort = p.sort && sortsBy.has(p.sort) ? { field: p.sort, dir: p.dir ?? 'asc' } : undefined;
    const chosen: Record<string, string> = Object.fromEntries(
      valueFilters.flatMap((f) => {
        const value = p[f.param];
        return typeof value === 'string' && f.values?.includes(value) ? [[f.param, value]] : [];
      }),
    );
    // A list inside one parent (a book's pages) shows that parent's records only.
    const where = within && parentId !== null ? { ...chosen, [within]: parentId } : chosen;
    const pageSize = p.limit && sizes.includes(p.limit) ? p.limit : undefined;
    return { chosen, sort, query: { search: p.search, page: p.page, sort, pageSize, where } };
  };
  return { params, within, parentId, valueFilters, sizes, queryOf, ...queryOf(params) };
}
