/** The list screens' URL search (page and search text), validated. */
export interface ListSearch {
  page?: number;
  search?: string;
}

export function validateListSearch(raw: Record<string, unknown>): ListSearch {
  const page = Number(raw.page);
  return {
    page: Number.isInteger(page) && page > 1 ? page : undefined,
    search: typeof raw.search === 'string' && raw.search !== '' ? raw.search : undefined,
  };
}
