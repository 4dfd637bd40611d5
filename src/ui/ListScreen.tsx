/**
 * The generic list screen (spec: shared list behaviour), driven by the entity description:
 * title, Add button, search that resets to page 1, S.no, the description's columns, Edit
 * and Delete, the empty text, 'Showing a to b of total entries' and pagination. Rows come
 * from the local store; a row not yet confirmed by the server carries a pending marker.
 */
import { Link, useNavigate, useSearch } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import type { EntityDescription } from '../contract/entity';
import { messages } from '../contract/messages';
import { saveChange, useList } from './data';
import type { ListSearch } from './list-search';
import { useNotify } from './notices';
import { Pagination } from './Pagination';
import { reportOutcome } from './report-outcome';
import { encodeRouteId } from './route-id';
import { usePageTitle } from './use-page-title';

export default function ListScreen({ entity }: { entity: EntityDescription }) {
  const text = messages(entity.names);
  usePageTitle(text.title);
  const notify = useNotify();
  const navigate = useNavigate();
  const params = useSearch({ strict: false }) as ListSearch;
  const [typed, setTyped] = useState(params.search ?? '');
  useEffect(() => setTyped(params.search ?? ''), [params.search]);
  const result = useList(entity, { search: params.search, page: params.page });

  const go = (next: ListSearch) =>
    navigate({ to: '.', search: { ...params, ...next } as never, replace: true });

  const onSearch = (value: string) => {
    setTyped(value);
    void go({ search: value || undefined, page: undefined });
  };

  const remove = async (key: string) => {
    if (entity.confirmDelete && !window.confirm(entity.confirmDelete)) return;
    const { entryId } = await saveChange({ op: 'delete', entity, key });
    await reportOutcome(notify, entryId, text.deleted, text.failedDelete);
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
      <table className="table">
        <thead>
          <tr>
            <th scope="col">S.no</th>
            {columns.map((c) => (
              <th scope="col" key={c.field}>
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
                    {String(row[c.field] ?? '')}
                    {ci === 0 && pending && (
                      <span className="pending" title="Saved on this device, not yet confirmed by the server">
                        Pending
                      </span>
                    )}
                  </td>
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
              <td colSpan={columns.length + 3} className="empty">
                {text.empty}
              </td>
            </tr>
          )}
        </tbody>
      </table>
      <div className="list-foot">
        <p>
          Showing {first} to {last} of {total} entries
        </p>
        <Pagination page={page} pages={pages} onPage={(p) => void go({ page: p > 1 ? p : undefined })} />
      </div>
    </section>
  );
}
