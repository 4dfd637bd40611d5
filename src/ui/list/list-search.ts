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

type Checked = { value: ListSearch } | { issues: { message: string }[] };

/**
 * A list address as the list reads it, or the words for what is wrong with it. A page or size
 * is a whole number from 1 up, or absent (empty counts as absent): anything else is a broken
 * address, not page 1. Any other text parameter is a list filter's value; the list keeps those
 * its description has.
 */
export function readListSearch(raw: Record<string, unknown>): Checked {
  const messages: string[] = [];
  const whole = (name: string, max: number): number | undefined => {
    const value = raw[name];
    if (value === undefined || value === '') return undefined;
    if (isWhole(value, max)) return Number(value);
    messages.push(`The address has ${name}=${String(value)}: it must be a whole number from 1 to ${max}.`);
    return undefined;
  };
  const page = whole('page', Number.MAX_SAFE_INTEGER);
  const limit = whole('limit', 1000);
  const { dir } = raw;
  if (dir !== undefined && dir !== 'asc' && dir !== 'desc')
    messages.push(`The address has dir=${String(dir)}: it must be asc or desc.`);
  if (messages.length > 0) return { issues: messages.map((message) => ({ message })) };
  const filters = Object.fromEntries(
    Object.entries(raw).filter(([k, value]) => !KNOWN.has(k) && typeof value === 'string' && value !== ''),
  ) as Record<string, string>;
  return {
    value: {
      ...filters,
      page: page !== undefined && page > 1 ? page : undefined,
      limit,
      search: text(raw.search),
      sort: text(raw.sort),
      dir: dir as ListSearch['dir'],
    },
  };
}

/**
 * The list routes' search, checked by the router itself: `validateSearch` takes a Standard
 * Schema, and a refusal is the route's error screen (list-address-error.tsx), which shows the
 * issues' messages. Written out rather than with valibot: it is on every first load, where
 * these few lines cost less than the library's share.
 */
export const listSearchSchema = {
  '~standard': {
    version: 1,
    vendor: 'textbook-admin',
    validate: (raw: unknown): Checked => readListSearch((raw ?? {}) as Record<string, unknown>),
    types: undefined as unknown as { input: Record<string, unknown>; output: ListSearch },
  },
} as const;

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
