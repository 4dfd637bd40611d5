import type { ListFilter } from '../../contract/entity';
import type { ListSearch } from './list-search';
import { SearchBox } from './SearchBox';

/**
 * Above the list: the search box, a select per filter by a fixed value ('All' for none) and
 * the 'Show n entries' page size where the list offers more than one. Each change goes to page 1.
 */
export function ListTools({
  search,
  placeholder,
  valueFilters,
  chosen,
  sizes,
  shownSize,
  defaultSize,
  go,
}: {
  search: string;
  placeholder: string;
  valueFilters: readonly ListFilter[];
  chosen: Record<string, string>;
  sizes: readonly number[];
  shownSize: number;
  /** The description's page size: not written into the address. */
  defaultSize: number;
  go: (next: ListSearch, typing?: boolean) => unknown;
}) {
  return (
    <div className="list-tools">
      <SearchBox
        value={search}
        placeholder={placeholder}
        onSearch={(value) => void go({ search: value || undefined, page: undefined }, true)}
      />
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
              void go({ limit: limit === defaultSize ? undefined : limit, page: undefined });
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
  );
}
