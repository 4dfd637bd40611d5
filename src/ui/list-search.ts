/** The list screens' URL search (page and search text), validated. */
export interface ListSearch {
  page?: number;
  search?: string;
  /** Sortable lists: the column and direction chosen by clicking a header. */
  sort?: string;
  dir?: 'asc' | 'desc';
  /** A list filter's value, under the filter's parameter (`status=Disabled`). */
  [filter: string]: string | number | undefined;
  /** Lists with page sizes ('Show'): the size chosen. */
  limit?: number;
}

export function validateListSearch(raw: Record<string, unknown>): ListSearch {
  const page = Number(raw.page);
  // Any other text parameter is a list filter's value; the list keeps those its description has.
  const filters = Object.fromEntries(
    Object.entries(raw).filter(
      ([k, v]) =>
        !['page', 'search', 'sort', 'dir', 'limit'].includes(k) && typeof v === 'string' && v !== '',
    ),
  ) as Record<string, string>;
  const limit = Number(raw.limit);
  return {
    ...filters,
    page: Number.isInteger(page) && page > 1 ? page : undefined,
    limit: Number.isInteger(limit) && limit > 0 && limit <= 1000 ? limit : undefined,
    search: typeof raw.search === 'string' && raw.search !== '' ? raw.search : undefined,
    sort: typeof raw.sort === 'string' && raw.sort !== '' ? raw.sort : undefined,
    dir: raw.dir === 'desc' ? 'desc' : raw.dir === 'asc' ? 'asc' : undefined,
  };
}

/**
 * Router state a form leaves for the list it returns to: the record it just added, which the
 * list opens on the page of and highlights (ListScreen). State, not search: it is a one-off
 * request, not part of the list's address.
 */
declare module '@tanstack/history' {
  interface HistoryState {
    reveal?: string;
  }
}
