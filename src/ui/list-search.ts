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

/** A list address the router refuses (its error screen says which part and how). */
export class ListAddressError extends Error {}

/** A whole number from 1 up, as the address carries it (the router gives digits as a number). */
function positiveWhole(raw: Record<string, unknown>, name: string, max: number): number | undefined {
  const value = raw[name];
  if (value === undefined || value === '') return undefined;
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max)
    throw new ListAddressError(
      `The address has ${name}=${String(value)}: it must be a whole number from 1 to ${max}.`,
    );
  return n;
}

export function validateListSearch(raw: Record<string, unknown>): ListSearch {
  // A page or size that is not a whole number is a broken address, not page 1: the router's
  // error screen says so (issue 19) instead of silently showing something else.
  const page = positiveWhole(raw, 'page', Number.MAX_SAFE_INTEGER) ?? 1;
  if (raw.dir !== undefined && raw.dir !== 'asc' && raw.dir !== 'desc')
    throw new ListAddressError(`The address has dir=${String(raw.dir)}: it must be asc or desc.`);
  // Any other text parameter is a list filter's value; the list keeps those its description has.
  const filters = Object.fromEntries(
    Object.entries(raw).filter(
      ([k, v]) =>
        !['page', 'search', 'sort', 'dir', 'limit'].includes(k) && typeof v === 'string' && v !== '',
    ),
  ) as Record<string, string>;
  const limit = positiveWhole(raw, 'limit', 1000);
  return {
    ...filters,
    page: page > 1 ? page : undefined,
    limit,
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
