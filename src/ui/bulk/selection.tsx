/**
 * Selecting rows of a list: a checkbox per row ('Select <name>'), 'Select
 * page' in the header, and the bar of actions for what is selected (BulkBar). The selection is
 * a set of keys held by the list screen, so it survives paging, sorting and the page size; a
 * new search or filter is another set of rows, so changing either clears it (nothing selected
 * out of sight of the query shown). ListScreen adds the three parts this hook hands back.
 */
import { type ReactNode, useState } from 'react';
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
const NO_KEYS: ReadonlySet<string> = new Set();

export function useBulkSelection(
  entity: EntityDescription,
  query: PageQuery,
  page: { rows: readonly Row[]; total: number } | undefined,
  enabled: boolean,
): BulkSelection {
  const scope = JSON.stringify([entity.name, query.search?.trim() ?? '', query.where ?? {}]);
  const [chosen, setChosen] = useState<{ scope: string; keys: ReadonlySet<string> }>(() => ({
    scope,
    keys: NO_KEYS,
  }));
  // A selection made in another scope is cleared in this render (React renders again at once);
  // an effect would render the whole list a second time on every keystroke of a search.
  if (chosen.scope !== scope && chosen.keys.size > 0) setChosen({ scope, keys: NO_KEYS });
  const selected = chosen.scope === scope ? chosen.keys : NO_KEYS;
  const setSelected = (keys: ReadonlySet<string>) => setChosen({ scope, keys });
  // Nothing to select in an empty list: no column of boxes (and no lone 'Select page').
  if (!enabled || (page?.total === 0 && selected.size === 0)) return NONE;

  const pageKeys = (page?.rows ?? []).map((row) => String(row[entity.key]));
  const pageSelected = pageKeys.length > 0 && pageKeys.every((k) => selected.has(k));
  const change = (keys: readonly string[], on: boolean) =>
    setChosen((was) => {
      const next = new Set(was.scope === scope ? was.keys : NO_KEYS);
      for (const k of keys) {
        if (on) next.add(k);
        else next.delete(k);
      }
      return { scope, keys: next };
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
