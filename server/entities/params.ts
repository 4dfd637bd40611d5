/**
 * The list endpoints' query string: search, page, limit, sortOption (legacy; Units send
 * sortColumn and sortOrder instead) and since, sinceLimit and sinceCount (our delta pull). Empty values count as absent,
 * since the legacy client sends `search=` and `sortOption=` on every call. Filters
 * (`?series_id=`) are read by filters.ts.
 */
import { columnFields, type EntityDescription } from '../../src/contract/entity';
import { DELTA_COUNT_PARAM, DELTA_LIMIT_PARAM, DELTA_MAX_PAGE, DELTA_PARAM } from '../../src/contract/wire';
import { type DeltaCursor, parseDeltaCursor } from './row-shapes';
import { sortableColumns } from './sql';

/** Protects the server from `limit=10000000`; a full pull calls the list bare instead. */
export const MAX_LIMIT = 1000;

export interface ListParams {
  search: string;
  /** Absent: every row (dropdowns and full pulls call the list bare). */
  page?: { limit: number; offset: number };
  /** `column` is a row column: an own column or, with sortColumn, a parent's joined name. */
  order: { column: string; dir: 'asc' | 'desc' };
  /** Delta cursor; absent for a plain list. */
  since?: DeltaCursor;
  /** With since: the page's size, at most DELTA_MAX_PAGE (also the default). */
  sinceLimit: number;
  /** With since: whether to say how many changes remain after the page. */
  sinceCount: boolean;
}

const WHOLE = /^[0-9]{1,15}$/;

export function parseListParams(
  entity: EntityDescription,
  query: Record<string, string>,
  options: { legacy: boolean },
): ListParams | null {
  const given = (name: string) => (query[name]?.trim() ? query[name].trim() : undefined);
  const page = given('page');
  const limit = given('limit');
  const since = options.legacy ? undefined : given(DELTA_PARAM);
  const sinceLimit = options.legacy ? undefined : given(DELTA_LIMIT_PARAM);
  const sinceCount = options.legacy ? undefined : given(DELTA_COUNT_PARAM);
  if ([page, limit, sinceLimit].some((v) => v !== undefined && !WHOLE.test(v))) return null;
  const cursor = since === undefined ? undefined : parseDeltaCursor(since);
  if (since !== undefined && !cursor) return null;
  if (page === '0' || limit === '0' || sinceLimit === '0') return null;
  if (sinceCount !== undefined && sinceCount !== '0' && sinceCount !== '1') return null;

  const out: ListParams = {
    search: given('search') ?? '',
    order: defaultOrder(entity),
    sinceLimit: Math.min(Number(sinceLimit ?? DELTA_MAX_PAGE), DELTA_MAX_PAGE),
    sinceCount: sinceCount === '1',
  };
  // page without limit has no meaning and is ignored; limit without page is the first page.
  if (limit !== undefined) {
    const size = Math.min(Number(limit), MAX_LIMIT);
    out.page = { limit: size, offset: (Number(page ?? 1) - 1) * size };
  }
  if (entity.api.sortParams === 'sortColumn') out.order = sortColumnOrder(entity, given);
  else {
    // Book pages name it `sort` (page_number_asc); the others `sortOption`.
    const sort = given(entity.api.sortParams === 'sort' ? 'sort' : 'sortOption')?.match(
      /^([a-z_][a-z0-9_]*)_(asc|desc)$/,
    );
    // The client only ever sends '': unknown values are ignored rather than refused.
    if (sort && sortableColumns(entity).includes(sort[1]))
      out.order = { column: sort[1], dir: sort[2] as 'asc' | 'desc' };
  }
  if (cursor) out.since = cursor;
  return out;
}

/**
 * Units: `sortColumn` names a column shown in the list (parents' names included) or `sno`,
 * the S.no header, which is the row order, i.e. the key; `sortOrder` is asc or desc. The
 * client starts with sortColumn='' and sortOrder='asc', so unknown values fall back to the
 * key and asc rather than being refused (api-contract §9 item 4: the accepted set is unknown).
 */
function sortColumnOrder(
  entity: EntityDescription,
  given: (name: string) => string | undefined,
): ListParams['order'] {
  const shown = entity.list.columns.flatMap(columnFields);
  const asked = given('sortColumn');
  const column = asked && asked !== 'sno' && shown.includes(asked) ? asked : entity.key;
  const dir = given('sortOrder')?.toLowerCase() === 'desc' ? 'desc' : 'asc';
  return { column, dir };
}

function defaultOrder(entity: EntityDescription): ListParams['order'] {
  return { column: entity.list.sort.field, dir: entity.list.sort.dir };
}
