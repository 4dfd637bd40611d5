/** A sortable list's column header (Units): a button toggling asc/desc, with the arrow and aria-sort of the order shown. */
export function SortHeader({
  header,
  field,
  sort,
  onSort,
}: {
  header: string;
  field: string;
  /** The order the rows follow now: the one chosen, else the list's default. */
  sort: { field: string; dir: 'asc' | 'desc' };
  onSort: (field: string) => void;
}) {
  const dir = sort.field === field ? sort.dir : undefined;
  return (
    <th scope="col" aria-sort={dir === 'asc' ? 'ascending' : dir === 'desc' ? 'descending' : undefined}>
      <button type="button" className="sort" onClick={() => onSort(field)}>
        {header}
        <span aria-hidden="true">{dir === 'asc' ? ' ▲' : dir === 'desc' ? ' ▼' : ''}</span>
      </button>
    </th>
  );
}
