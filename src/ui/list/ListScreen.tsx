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
import { Link } from '@tanstack/react-router';
import { mayChange } from '../../contract/accounts/roles';
import type { EntityDescription, RowActions, ScreenTexts } from '../../contract/entity';
import { screenTexts } from '../../contract/messages';
import { useBulkSelection } from '../bulk/selection';
import { type ColumnView, columnViews } from '../columns';
import { useList } from '../data';
import { ParentName } from '../ParentName';
import { useRole } from '../role';
import { encodeRouteId } from '../route-id';
import { usePageTitle } from '../use-page-title';
import { actionColumns } from './action-columns';
import { ListCsvTools } from './ListCsvTools';
import { ListFoot, pageSpan } from './ListFoot';
import { ListTable } from './ListTable';
import { ListTools } from './ListTools';
import { useRevealedRow } from './reveal';
import { useDeleteRow } from './use-delete-row';
import { useListAddress } from './use-list-address';
import { useListGo } from './use-list-go';
import { useScrolledIntoView } from './use-scrolled-into-view';

export type { ColumnView } from '../columns';

/** Where the add button goes: the add form, inside the parent for a list inside one; or none. */
function addLink(entity: EntityDescription, withAdd: boolean, parentId: string | null): string | null {
  if (!withAdd || !entity.api.add || !entity.routes.add) return null;
  return parentId !== null ? `${entity.routes.add}/${encodeRouteId(parentId)}` : entity.routes.add;
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
  usePageTitle(texts.listTitle);
  const remove = useDeleteRow(entity);
  const own = given ?? columnViews(entity);
  const address = useListAddress(entity, own);
  const { params, within, parentId, sort, query } = address;
  const { result, askNow } = useList(entity, query);
  const revealed = useRevealedRow(entity, params, query);
  // Selection and bulk actions (bulk/): not on a picker, whose rows are another screen's links.
  const role = useRole();
  const may = mayChange(role, entity);
  const { go, shown } = useListGo(params, (search) => address.queryOf(search).query, askNow);
  const shownQuery = shown === params ? query : address.queryOf(shown).query;
  const bulk = useBulkSelection(entity, shownQuery, result, actions === undefined && may);

  const order = sort ?? entity.list.sort;
  const onSort = (field: string) => {
    const dir = order.field === field && order.dir === 'asc' ? 'desc' : 'asc';
    void go({ sort: field, dir, page: undefined });
  };

  // The row just added comes into view once it is drawn.
  const revealedRow = useScrolledIntoView(
    result?.rows.some((row) => String(row[entity.key]) === revealed) ?? false,
  );

  const span = pageSpan(result, entity.list.pageSize);
  const columns = [...own, ...actionColumns(entity, remove, actions, role)];
  // A role that may not change the entity reads the list without its changing buttons.
  const addTo = addLink(entity, withAdd && may, parentId);

  return (
    <section className="screen">
      <div className="screen-head">
        <h1>{texts.listTitle}</h1>
        {addTo && (
          <Link to={addTo} className="button">
            {texts.addButton}
          </Link>
        )}
        <ListCsvTools entity={entity} query={shownQuery} />
      </div>
      {within && parentId !== null && <ParentName entity={entity} field={within} id={parentId} sayMissing />}
      <ListTools
        search={params.search ?? ''}
        placeholder={texts.searchPlaceholder}
        valueFilters={address.valueFilters}
        chosen={address.chosen}
        sizes={address.sizes}
        shownSize={span.shownSize}
        defaultSize={entity.list.pageSize}
        go={go}
      />
      <ListTable
        entity={entity}
        texts={texts}
        own={own}
        columns={columns}
        order={order}
        onSort={onSort}
        result={result}
        first={span.first}
        revealed={revealed}
        revealedRow={revealedRow}
        bulk={bulk}
      />
      <ListFoot
        showing={texts.showing}
        loaded={result !== undefined}
        span={span}
        onPage={(p) => void go({ page: p > 1 ? p : undefined })}
      />
      {bulk.bar}
    </section>
  );
}
