/**
 * Selecting rows of a list: a checkbox per row ('Select <name>'), 'Select
 * page' in the header, and the bar of actions for what is selected (BulkBar). The selection is
 * a set of keys held by the list screen, so it survives paging, sorting and the page size; a
 * new search or filter is another set of rows, so changing either clears it (nothing selected
 * out of sight of the query shown). ListScreen adds the three parts this hook hands back.
 */
import { type ReactNode, useEffect, useState } from 'react';
import type { EntityDescription } from '../../contract/entity';
import type { PageQuery } from '../../db/queries';
import type { Row } from '../data';
import { BulkBar } from './BulkBar';

export interface BulkSelection {
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  bar: ReactNode;
}

const NONE: BulkSelection = { header: null, cell: () => null, bar: null };

export function useBulkSelection(
  entity: EntityDescription,
  query: PageQuery,
  page: { rows: readonly Row[]; total: number } | undefined,
  enabled: boolean,
): BulkSelection {
  const [selected, setSelected] = useState<ReadonlySet<string>>(() => new Set());
  const scope = JSON.stringify([entity.name, query.search?.trim() ?? '', query.where ?? {}]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the scope is what clears it
  useEffect(() => setSelected(new Set()), [scope]);
  // Nothing to select in an empty list: no column of boxes (and no lone 'Select page').
  if (!enabled || (page?.total === 0 && selected.size === 0)) return NONE;

  const pageKeys = (page?.rows ?? []).map((row) => String(row[entity.key]));
  const pageSelected = pageKeys.length > 0 && pageKeys.every((k) => selected.has(k));
  const change = (keys: readonly string[], on: boolean) =>
    setSelected((all) => {
      const next = new Set(all);
      for (const k of keys) {
        if (on) next.add(k);
        else next.delete(k);
      }
      return next;
    });

  return {
    header: (
      <th scope="col" className="cell-select" key="select">
        <label className="check-target">
          <input
            type="checkbox"
            aria-label="Select page"
            checked={pageSelected}
            disabled={pageKeys.length === 0}
            onChange={(e) => change(pageKeys, e.target.checked)}
          />
        </label>
      </th>
    ),
    cell: (row) => {
      const key = String(row[entity.key]);
      return (
        <td data-label="Select" className="cell-select">
          <label className="check-target">
            <input
              type="checkbox"
              aria-label={`Select ${String(row[entity.title] ?? key)}`}
              checked={selected.has(key)}
              onChange={(e) => change([key], e.target.checked)}
            />
          </label>
        </td>
      );
    },
    bar:
      selected.size > 0 ? (
        <BulkBar
          entity={entity}
          query={query}
          selected={selected}
          onSelect={setSelected}
          total={page?.total ?? 0}
          pageSelected={pageSelected}
        />
      ) : null,
  };
}
