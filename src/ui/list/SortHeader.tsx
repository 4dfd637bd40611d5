/**
 * A sortable column's header (WAI-ARIA sortable table): a button inside the `th` toggling
 * asc/desc, the arrow and `aria-sort` on the column whose order the rows follow.
 */
export function SortHeader({
  header,
  field,
  sort,
  onSort,
  className,
}: {
  header: string;
  field: string;
  /** The order the rows follow now: the one chosen, else the list's default. */
  sort: { field: string; dir: 'asc' | 'desc' };
  onSort: (field: string) => void;
  /** Hides the column where its priority says so (RowMore.tsx). */
  className?: string;
}) {
  const dir = sort.field === field ? sort.dir : undefined;
  return (
    <th
      scope="col"
      className={className}
      aria-sort={dir === 'asc' ? 'ascending' : dir === 'desc' ? 'descending' : undefined}
    >
      <button type="button" className="sort" onClick={() => onSort(field)}>
        {header}
        <span aria-hidden="true">{dir === 'asc' ? ' ▲' : dir === 'desc' ? ' ▼' : ''}</span>
      </button>
    </th>
  );
}
