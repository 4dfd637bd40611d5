/**
 * The generic list screen (spec: shared list behaviour), driven by the entity description:
 * its texts (title, add button, empty text, S.no header), search that resets to page 1, the
 * description's columns (text, parents' names, choices by name, dates, thumbnails, field-action
 * buttons, links), its row actions (Edit, Delete, a record's own screens such as Assign Books,
 * in one column or one each), 'Showing a to b of total entries' and pagination. Rows come from
 * the local store through the list engine (ui/data.ts); a row not yet confirmed by the server
 * carries a pending marker. After an add the list opens on the page holding the new record
 * and marks its row (reveal.ts). An empty list shows the empty text and no page buttons. On
 * narrow screens the table scrolls in a frame that says so, or becomes cards (ScrollTable).
 *
 * Every column with an order sorts from its header (contract/list-order.ts: names, codes,
 * dates, status, numbers, parents' names; the S.no column by key), toggling asc/desc, the
 * order shown before any click (the list's default); the order is kept in the URL (sort, dir).
 * Every list offers its page sizes in a 'Show' select (10, 25, 50, 100; `limit` in the URL),
 * and pagination is a window of pages with First and Last (Pagination.tsx). Changing the
 * search, a filter or the size goes to page 1.
 *
 * A screen override may replace the columns (`columns`): columnViews() gives the description's
 * own, to keep, reorder or replace; a picker (/bookpages) shows another entity's rows with its
 * own texts and row links, and no add button.
 *
 * A list inside one parent (EntityRoutes.within: the pages of a book) takes the parent's id
 * from its route, shows only that parent's records and names the parent; its add button adds
 * to that parent.
 */
import { Link, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { Fragment, type ReactNode, useEffect, useRef } from 'react';
import { saveChange, setHolders } from '../app/records';
import type { EntityDescription, RowActions, ScreenTexts } from '../contract/entity';
import { pageSizesOf } from '../contract/list-order';
import { entityMessages, screenTexts, showingText } from '../contract/messages';
import { useBulkSelection } from './bulk/selection';
import { type ColumnView, columnViews } from './columns';
import { type Row, useList } from './data';
import { ColumnLookups } from './list/column-lookups';
import { ListCsvTools } from './list/ListCsvTools';
import type { ListSearch } from './list/list-search';
import { Pagination } from './list/Pagination';
import { priorityClass, RowMore } from './list/RowMore';
import { useRevealedRow } from './list/reveal';
import { SearchBox } from './list/SearchBox';
import { SortHeader } from './list/SortHeader';
import { useNotify } from './notices';
import { ParentName } from './ParentName';
import { reportOutcome } from './report-outcome';
import { encodeRouteId } from './route-id';
import { ScrollTable } from './ScrollTable';
import { saveFailureDetail } from './save-failure';
import { usePageTitle } from './use-page-title';

export type { ColumnView } from './columns';

/** The row actions' columns: one per action, or one headed by the description's header. */
function actionColumns(
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

/**
 * The delete confirmation: the description's sentence, and for a record that others hold in a
 * set (a book assigned to schools, teachers, students) to how many of each it is assigned.
 */
async function deleteQuestion(entity: EntityDescription, key: string): Promise<string | null> {
  const held = (await setHolders(entity, key)).filter((h) => h.count > 0);
  if (held.length === 0) return entity.confirmDelete ?? null;
  const parts = held.map((h) => `${h.count} ${h.count === 1 ? h.entity.names.one : h.entity.names.many}`);
  const list = parts.length > 1 ? `${parts.slice(0, -1).join(', ')} and ${parts.at(-1)}` : parts[0];
  const assigned = `It is assigned to ${list}; deleting it removes it from them.`;
  return entity.confirmDelete
    ? `${entity.confirmDelete} ${assigned}`
    : `Delete this ${entity.names.one}? ${assigned}`;
}

export default function ListScreen({
  entity,
  columns: given,
  texts: ownTexts,
  actions,
  withAdd = true,
}: {
  entity: EntityDescription;
  /** Replaces the description's columns (a screen override, a picker). */
  columns?: readonly ColumnView[];
  /** Replace the description's texts (a picker). */
  texts?: ScreenTexts;
  /** Replace the description's row actions (a picker's links). */
  actions?: RowActions;
  withAdd?: boolean;
}) {
  const texts = { ...screenTexts(entity), ...ownTexts };
  const notices = entityMessages(entity);
  usePageTitle(texts.listTitle);
  const notify = useNotify();
  const navigate = useNavigate();
  const params = useSearch({ strict: false }) as ListSearch;
  const { id: rawParent } = useParams({ strict: false }) as { id?: string };
  const within = entity.routes.within?.field;
  // Decoded by the router (route-id.ts: routeIdParams).
  const parentId = within ? (rawParent ?? '') : null;
  const own = given ?? columnViews(entity);
  // The order chosen by a header (kept in the URL), when a column sorts by that field.
  const sortsBy = new Set([entity.key, ...own.flatMap((c) => (c.sortField ? [c.sortField] : []))]);
  // Filters by a fixed value (teachers' status), kept in the URL; none chosen is 'All'.
  const valueFilters = (entity.filters ?? []).filter((f) => f.values);
  const sizes = pageSizesOf(entity);
  /** The list query an address's search asks (the address now, or the one a click goes to). */
  const queryOf = (p: ListSearch) => {
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
  const { chosen, sort, query } = queryOf(params);
  const { result, askNow } = useList(entity, query);
  const revealed = useRevealedRow(entity, params, query);
  // Selection and bulk actions (bulk/): not on a picker, whose rows are another screen's links.
  const bulk = useBulkSelection(entity, query, result, actions === undefined);

  /**
   * Goes to another page, search, order, filter or size: the list asks for it at once, in the
   * handler's task, and the address follows (the page stays in it for reload and back/forward).
   */
  const go = (next: ListSearch) => {
    const search = { ...params, ...next };
    askNow(queryOf(search).query);
    return navigate({ to: '.', search: search as never, replace: true });
  };

  const onSearch = (value: string) => void go({ search: value || undefined, page: undefined });

  const onSort = (field: string) => {
    const shown = sort ?? entity.list.sort;
    const dir = shown.field === field && shown.dir === 'asc' ? 'desc' : 'asc';
    void go({ sort: field, dir, page: undefined });
  };

  const remove = async (key: string) => {
    const question = await deleteQuestion(entity, key);
    if (question && !window.confirm(question)) return;
    try {
      const { entryId } = await saveChange({ op: 'delete', entity, key });
      await reportOutcome(notify, entryId, notices.deleted, notices.failedDelete);
    } catch (error) {
      notify('error', notices.failedDelete, saveFailureDetail(error));
    }
  };

  // The row just added comes into view once it is drawn.
  const revealedRow = useRef<HTMLTableRowElement>(null);
  const revealedShown = result?.rows.some((row) => String(row[entity.key]) === revealed) ?? false;
  useEffect(() => {
    if (revealedShown) revealedRow.current?.scrollIntoView({ block: 'nearest' });
  }, [revealedShown]);

  const shownSize = result?.pageSize ?? entity.list.pageSize;
  const total = result?.total ?? 0;
  const page = result?.page ?? 1;
  const first = total === 0 ? 0 : (page - 1) * shownSize + 1;
  const last = Math.min(total, page * shownSize);
  const pages = Math.max(1, Math.ceil(total / shownSize));
  // The name column: the one marked, else the first.
  const primary = Math.max(
    0,
    own.findIndex((c) => c.primary),
  );
  const columns = [...own, ...actionColumns(entity, remove, actions)];
  const addTo =
    withAdd && entity.api.add && entity.routes.add
      ? parentId !== null
        ? `${entity.routes.add}/${encodeRouteId(parentId)}`
        : entity.routes.add
      : null;
  const header = (c: ColumnView): ReactNode =>
    c.sortField ? (
      <SortHeader
        key={c.header}
        className={priorityClass(c.priority)}
        header={c.header}
        field={c.sortField}
        sort={sort ?? entity.list.sort}
        onSort={onSort}
      />
    ) : (
      <th scope="col" key={c.header} className={priorityClass(c.priority)}>
        {c.header}
      </th>
    );

  return (
    <section className="screen">
      <div className="screen-head">
        <h1>{texts.listTitle}</h1>
        {addTo && (
          <Link to={addTo} className="button">
            {texts.addButton}
          </Link>
        )}
        <ListCsvTools entity={entity} query={query} />
      </div>
      {within && parentId !== null && <ParentName entity={entity} field={within} id={parentId} sayMissing />}
      <div className="list-tools">
        <SearchBox value={params.search ?? ''} placeholder={texts.searchPlaceholder} onSearch={onSearch} />
        {valueFilters.map((f) => (
          <label key={f.param} className="list-filter">
            <span>{f.label ?? f.param}</span>
            <select
              value={chosen[f.param] ?? ''}
              onChange={(e) => void go({ [f.param]: e.target.value || undefined, page: undefined })}
            >
              <option value="">All</option>
              {f.values?.map((v) => (
                <option key={v} value={v}>
                  {v}
                </option>
              ))}
            </select>
          </label>
        ))}
        {sizes.length > 1 && (
          <label className="page-size">
            Show{' '}
            <select
              value={shownSize}
              onChange={(e) => {
                const limit = Number(e.target.value);
                void go({ limit: limit === entity.list.pageSize ? undefined : limit, page: undefined });
              }}
            >
              {sizes.map((n) => (
                <option key={n} value={n}>
                  {n}
                </option>
              ))}
            </select>{' '}
            entries
          </label>
        )}
      </div>
      {bulk.bar}
      <ScrollTable label={texts.listTitle}>
        <ColumnLookups entity={entity}>
          <table className="table table-cards">
            <thead>
              <tr>
                {bulk.header}
                {header({ header: texts.sno, sortField: entity.key, cell: () => null })}
                {columns.map(header)}
              </tr>
            </thead>
            <tbody aria-busy={result === undefined}>
              {result?.rows.map((row, i) => {
                const key = String(row[entity.key]);
                const pending = result.pending.has(key);
                const isRevealed = key === revealed;
                return (
                  <tr
                    key={key}
                    ref={isRevealed ? revealedRow : undefined}
                    data-pending={pending || undefined}
                    data-revealed={isRevealed || undefined}
                  >
                    {bulk.cell(row)}
                    <td data-label={texts.sno} className="cell-sno">
                      {first + i}
                    </td>
                    {columns.map((c, ci) => (
                      <td
                        key={c.header}
                        data-label={c.header}
                        className={
                          ci === primary
                            ? 'cell-primary'
                            : ci >= own.length
                              ? 'cell-action'
                              : priorityClass(c.priority)
                        }
                      >
                        {c.cell(row)}
                        {ci === primary && pending && (
                          <span
                            className="pending"
                            title="Saved on this device, not yet confirmed by the server"
                          >
                            Pending
                          </span>
                        )}
                        {ci === primary && <RowMore row={row} columns={own} />}
                      </td>
                    ))}
                  </tr>
                );
              })}
              {result && result.rows.length === 0 && (
                <tr>
                  <td colSpan={columns.length + (bulk.header ? 2 : 1)} className="empty">
                    {texts.empty}
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        </ColumnLookups>
      </ScrollTable>
      <div className="list-foot">
        {/* Before the first answer the total is unknown: "0 of 0 entries" would say the list is empty. */}
        <p>{result ? showingText(texts.showing, first, last, total) : 'Loading…'}</p>
        {total > 0 && (
          <Pagination page={page} pages={pages} onPage={(p) => void go({ page: p > 1 ? p : undefined })} />
        )}
      </div>
    </section>
  );
}
