/**
 * How a list goes to another page, search, order, filter or size: it asks for the query at
 * once, in the handler's task, and the address follows (it keeps the list for reload and
 * back/forward). A search being typed reaches the address only once typing pauses: writing the
 * address (the history entry, the route's checks and render) took the main thread on every
 * key for about as long as the list's answer, which then waited behind it.
 */
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useRef } from 'react';
import type { ListQuery } from '../../app/records';
import type { ListSearch } from './list-search';

/** A pause in typing this long puts the search into the address. */
const TYPING_PAUSE_MS = 400;

export interface ListGo {
  /** Asks for `next` (merged into the list's address) now; `typing`: the address follows later. */
  go(next: ListSearch, typing?: boolean): Promise<void> | undefined;
  /** The address as the list now shows it: the typed search that has not reached it yet included. */
  shown: ListSearch;
}

export function useListGo(
  params: ListSearch,
  queryOf: (search: ListSearch) => ListQuery,
  askNow: (query: ListQuery) => void,
): ListGo {
  const navigate = useNavigate();
  const typed = useRef<{ from: string; search: ListSearch } | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const address = useRef(params);
  address.current = params;
  // A list left (another screen) leaves its address alone.
  useEffect(() => () => clearTimeout(timer.current), []);
  // Typing that another address replaced (back, a link to the same list) is not written over it.
  if (typed.current && typed.current.from !== JSON.stringify(params)) typed.current = null;

  const commit = (search: ListSearch) => navigate({ to: '.', search: search as never, replace: true });
  const go = (next: ListSearch, typing = false) => {
    clearTimeout(timer.current);
    const search = { ...(typed.current?.search ?? params), ...next };
    askNow(queryOf(search));
    if (!typing) {
      typed.current = null;
      return commit(search);
    }
    typed.current = { from: JSON.stringify(params), search };
    timer.current = setTimeout(() => {
      const waiting = typed.current;
      typed.current = null;
      if (waiting && waiting.from === JSON.stringify(address.current)) void commit(waiting.search);
    }, TYPING_PAUSE_MS);
    return undefined;
  };
  return { go, shown: typed.current?.search ?? params };
}
