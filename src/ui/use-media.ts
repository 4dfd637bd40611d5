import { useCallback, useSyncExternalStore } from 'react';

/** One live MediaQueryList per query: its `matches` follows the viewport. */
const lists = new Map<string, MediaQueryList>();
function mediaList(query: string): MediaQueryList {
  let list = lists.get(query);
  if (!list) {
    list = window.matchMedia(query);
    lists.set(query, list);
  }
  return list;
}

/**
 * Whether a media query matches now, following its changes (a rotation, a resize). The
 * subscription is kept across renders: a list renders on every keystroke.
 */
export function useMedia(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      const list = mediaList(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(subscribe, () => mediaList(query).matches);
}
