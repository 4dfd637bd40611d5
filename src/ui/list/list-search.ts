import * as v from 'valibot/first-load';

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

/**
 * A whole number from 1 up, as the address carries it (the router gives digits as a number),
 * or absent (empty counts as absent). Anything else is a broken address, not page 1: the
 * router's error screen says which part and how.
 */
function positiveWhole(name: string, max: number) {
  return v.optional(
    v.pipe(
      v.unknown(),
      v.check(
        (value) => value === '' || isWhole(value, max),
        (issue) =>
          `The address has ${name}=${String(issue.input)}: it must be a whole number from 1 to ${max}.`,
      ),
      v.transform((value) => (value === '' ? undefined : Number(value))),
    ),
  );
}

function isWhole(value: unknown, max: number): boolean {
  const n = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  return Number.isInteger(n) && n >= 1 && n <= max;
}

/** A text parameter: digits typed by hand arrive as a number and are the same text. */
const text = (value: unknown): string | undefined => {
  const t = typeof value === 'number' ? String(value) : value;
  return typeof t === 'string' && t !== '' ? t : undefined;
};

const KNOWN = new Set(['page', 'search', 'sort', 'dir', 'limit']);

/**
 * The list routes' search, checked by the router itself (`validateSearch` takes this valibot
 * schema as a Standard Schema): a bad page, size or direction is the route's error screen
 * (list-address-error.tsx), which shows the issues' messages. Any other text parameter is a
 * list filter's value; the list keeps those its description has.
 */
export const listSearchSchema = v.pipe(
  v.looseObject({
    page: positiveWhole('page', Number.MAX_SAFE_INTEGER),
    limit: positiveWhole('limit', 1000),
    dir: v.optional(
      v.picklist(
        ['asc', 'desc'],
        (issue) => `The address has dir=${String(issue.input)}: it must be asc or desc.`,
      ),
    ),
    search: v.optional(v.unknown()),
    sort: v.optional(v.unknown()),
  }),
  v.transform(({ page, limit, dir, search, sort, ...rest }): ListSearch => {
    const filters = Object.fromEntries(
      Object.entries(rest).filter(([k, value]) => !KNOWN.has(k) && typeof value === 'string' && value !== ''),
    ) as Record<string, string>;
    return {
      ...filters,
      page: page !== undefined && page > 1 ? page : undefined,
      limit,
      search: text(search),
      sort: text(sort),
      dir,
    };
  }),
);

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
