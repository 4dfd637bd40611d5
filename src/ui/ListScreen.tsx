/**
 * The generic list screen (spec: shared list behaviour), driven by the entity description:
 * title, Add button, search that resets to page 1, S.no, the description's columns (text,
 * parents' names, thumbnails, combined cells), per-screen extra columns, Edit and Delete,
 * the empty text, 'Showing a to b of total entries' and pagination. Sortable lists (Units)
 * sort by header, toggling asc/desc with an arrow. Rows come from the local store; a row not
 * yet confirmed by the server carries a pending marker.
 */
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { type ReactNode, useEffect, useState } from 'react';
import type { EntityDescription, ListColumn } from '../contract/entity';
import { messages } from '../contract/messages';
import { type Row, saveChange, useList } from './data';
import { useFileUrl } from './file-url';
import type { ListSearch } from './list-search';
import { useNotify } from './notices';
import { Pagination } from './Pagination';
import { reportOutcome } from './report-outcome';
import { encodeRouteId } from './route-id';
import { saveFailureDetail } from './save-failure';
import { usePageTitle } from './use-page-title';

export interface ExtraColumn {
  header: string;
  cell: (row: Row) => ReactNode;
}

function Thumbnail({ entity, column, row }: { entity: EntityDescription; column: ListColumn; row: Row }) {
  const url = useFileUrl(entity.fields[column.field]?.file, row[column.field]);
  return url ? <img src={url} alt="" width={50} className="thumb" /> : null;
}

function cellText(column: ListColumn, row: Row): string {
  return [column.field, ...(column.also ?? [])].map((f) => String(row[f] ?? '')).join(' / ');
}

function SortHeader({
  column,
  search,
  onSort,
}: {
  column: { field: string; header: string };
  search: ListSearch;
  onSort: (field: string) => void;
}) {
  const active = search.sort === column.field;
  const dir = active ? (search.dir ?? 'asc') : undefined;
  return (
    <th scope="col" aria-sort={dir === 'asc' ? 'ascending' : dir === 'desc' ? 'descending' : undefined}>
      <button type="button" className="sort" onClick={() => onSort(column.field)}>
        {column.header}
        <span aria-hidden="true">{dir === 'asc' ? ' ▲' : dir === 'desc' ? ' ▼' : ''}</span>
      </button>
    </th>
  );
}

export default function ListScreen({
  entity,
  extraColumns = [],
}: {
  entity: EntityDescription;
  extraColumns?: readonly ExtraColumn[];
}) {
  const text = messages(entity.names);
  usePageTitle(text.title);
  const notify = useNotify();
  const navigate = useNavigate();
  const params = useSearch({ strict: false }) as ListSearch;
  const [typed, setTyped] = useState(params.search ?? '');
  useEffect(() => setTyped(params.search ?? ''), [params.search]);
  const sortable = entity.list.sortable === true;
  const sort = sortable && params.sort ? { field: params.sort, dir: params.dir ?? 'asc' } : undefined;
  const result = useList(entity, { search: params.search, page: params.page, sort });

  const go = (next: ListSearch) =>
    navigate({ to: '.', search: { ...params, ...next } as never, replace: true });

  const onSearch = (value: string) => {
    setTyped(value);
    void go({ search: value || undefined, page: undefined });
  };

  const onSort = (field: string) => {
    const dir = params.sort === field && (params.dir ?? 'asc') === 'asc' ? 'desc' : 'asc';
    void go({ sort: field, dir, page: undefined });
  };

  const remove = async (key: string) => {
    if (entity.confirmDelete && !window.confirm(entity.confirmDelete)) return;
    try {
      const { entryId } = await saveChange({ op: 'delete', entity, key });
      await reportOutcome(notify, entryId, text.deleted, text.failedDelete);
    } catch (error) {
      notify('error', text.failedDelete, saveFailureDetail(error));
    }
  };

  const pageSize = result?.pageSize ?? entity.list.pageSize;
  const total = result?.total ?? 0;
  const page = result?.page ?? 1;
  const first = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const columns = entity.list.columns;

  return (
    <section className="screen">
      <div className="screen-head">
        <h1>{text.title}</h1>
        <Link to={entity.routes.add} className="button">
          Add {entity.names.One}
        </Link>
      </div>
      <input
        type="search"
        className="search"
        aria-label="Search"
        placeholder={`Search ${entity.names.many}`}
        value={typed}
        onChange={(e) => onSearch(e.target.value)}
      />
      <div className="table-wrap">
        <table className="table">
          <thead>
            <tr>
              {sortable ? (
                <SortHeader column={{ field: entity.key, header: 'S.no' }} search={params} onSort={onSort} />
              ) : (
                <th scope="col">S.no</th>
              )}
              {columns.map((c) =>
                sortable && c.kind !== 'image' ? (
                  <SortHeader key={c.field} column={c} search={params} onSort={onSort} />
                ) : (
                  <th scope="col" key={c.field}>
                    {c.header}
                  </th>
                ),
              )}
              {extraColumns.map((c) => (
                <th scope="col" key={c.header}>
                  {c.header}
                </th>
              ))}
              <th scope="col">Edit</th>
              <th scope="col">Delete</th>
            </tr>
          </thead>
          <tbody aria-busy={result === undefined}>
            {result?.rows.map((row, i) => {
              const key = String(row[entity.key]);
              const pending = result.pending.has(key);
              return (
                <tr key={key} data-pending={pending || undefined}>
                  <td>{first + i}</td>
                  {columns.map((c, ci) => (
                    <td key={c.field}>
                      {c.kind === 'image' ? (
                        <Thumbnail entity={entity} column={c} row={row} />
                      ) : (
                        cellText(c, row)
                      )}
                      {ci === 0 && pending && (
                        <span
                          className="pending"
                          title="Saved on this device, not yet confirmed by the server"
                        >
                          Pending
                        </span>
                      )}
                    </td>
                  ))}
                  {extraColumns.map((c) => (
                    <td key={c.header}>{c.cell(row)}</td>
                  ))}
                  <td>
                    <Link
                      to={`${entity.routes.edit}/$id`}
                      params={{ id: encodeRouteId(key) }}
                      className="button button-small"
                    >
                      Edit
                    </Link>
                  </td>
                  <td>
                    <button
                      type="button"
                      className="button button-small button-danger"
                      onClick={() => remove(key)}
                    >
                      Delete
                    </button>
                  </td>
                </tr>
              );
            })}
            {result && result.rows.length === 0 && (
              <tr>
                <td colSpan={columns.length + extraColumns.length + 3} className="empty">
                  {text.empty}
                </td>
              </tr>
            )}
          </tbody>
        </table>
      </div>
      <div className="list-foot">
        <p>
          Showing {first} to {last} of {total} entries
        </p>
        <Pagination page={page} pages={pages} onPage={(p) => void go({ page: p > 1 ? p : undefined })} />
      </div>
    </section>
  );
}
