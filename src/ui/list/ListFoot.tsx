import { showingText } from '../../contract/messages';
import type { ListResult } from '../data';
import { Pagination } from './Pagination';

/** Where the page shown lies in the list: its size, the entries it spans and the page count. */
export function pageSpan(result: ListResult | undefined, defaultSize: number) {
  const shownSize = result?.pageSize ?? defaultSize;
  const total = result?.total ?? 0;
  const page = result?.page ?? 1;
  const first = total === 0 ? 0 : (page - 1) * shownSize + 1;
  const last = Math.min(total, page * shownSize);
  const pages = Math.max(1, Math.ceil(total / shownSize));
  return { shownSize, total, page, first, last, pages };
}

/** Below the list: 'Showing a to b of total entries' and the page buttons, when there are rows. */
export function ListFoot({
  showing,
  loaded,
  span: { first, last, total, page, pages },
  onPage,
}: {
  /** The description's 'Showing …' sentence. */
  showing: string;
  loaded: boolean;
  span: ReturnType<typeof pageSpan>;
  onPage: (page: number) => void;
}) {
  return (
    <div className="list-foot">
      {/* Before the first answer the total is unknown: "0 of 0 entries" would say the list is empty. */}
      <p>{loaded ? showingText(showing, first, last, total) : 'Loading…'}</p>
      {total > 0 && <Pagination page={page} pages={pages} onPage={onPage} />}
    </div>
  );
}
