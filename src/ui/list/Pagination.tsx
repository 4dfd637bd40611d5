/**
 * A list's pagination: First, Previous, a window of page numbers around the current page with
 * ellipses where pages are left out, Next and Last, disabled at the ends. The spec has one
 * button per page (ceiling of total over page size); at 100,000 rows that is 10,000 buttons,
 * so the window keeps at most eleven controls however many pages there are (README, "Lists").
 */

/** Page numbers on each side of the current page. */
const AROUND = 2;

/** The pages to show: the first, the current page's neighbours and the last; null for a gap. */
export function pageWindow(page: number, pages: number): (number | null)[] {
  const from = Math.max(1, Math.min(page - AROUND, pages - 2 * AROUND));
  const to = Math.min(pages, Math.max(page + AROUND, 1 + 2 * AROUND));
  const shown: (number | null)[] = [];
  if (from > 1) shown.push(1);
  if (from > 2) shown.push(null);
  for (let n = from; n <= to; n++) shown.push(n);
  if (to < pages - 1) shown.push(null);
  if (to < pages) shown.push(pages);
  return shown;
}

export function Pagination({
  page,
  pages,
  onPage,
}: {
  page: number;
  pages: number;
  onPage: (p: number) => void;
}) {
  const first = page <= 1;
  const last = page >= pages;
  return (
    <nav className="pagination" aria-label="Pagination">
      <button type="button" disabled={first} onClick={() => onPage(1)}>
        First
      </button>
      <button type="button" disabled={first} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      {pageWindow(page, pages).map((n, i) =>
        n === null ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: a gap has no identity but its place
          <span key={`gap-${i}`} className="pagination-gap" aria-hidden="true">
            …
          </span>
        ) : (
          <button
            type="button"
            key={n}
            aria-current={n === page ? 'page' : undefined}
            aria-label={`Page ${n}`}
            onClick={() => onPage(n)}
          >
            {n}
          </button>
        ),
      )}
      <button type="button" disabled={last} onClick={() => onPage(page + 1)}>
        Next
      </button>
      <button type="button" disabled={last} onClick={() => onPage(pages)}>
        Last
      </button>
    </nav>
  );
}
