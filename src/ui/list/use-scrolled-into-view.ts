import { type RefObject, useEffect, useRef } from 'react';

/** A row's ref that scrolls it into view once `shown` turns true (the row just added, drawn). */
export function useScrolledIntoView(shown: boolean): RefObject<HTMLTableRowElement | null> {
  const row = useRef<HTMLTableRowElement>(null);
  useEffect(() => {
    if (shown) row.current?.scrollIntoView({ block: 'nearest' });
  }, [shown]);
  return row;
}
