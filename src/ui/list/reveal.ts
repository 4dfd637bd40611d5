/**
 * After an add, the list shows the new record: the form navigates back with the record's key in
 * the router state (`reveal`); the list asks which page of its current search and sort holds it,
 * opens that page and marks the row until the screen is left. The key is resolved live, so the
 * mark stays on the row when the server names the record and its temporary key is replaced.
 */
import { useNavigate, useRouterState } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { currentKey, type ListQuery, pageOfRecord } from '../../app/records';
import type { EntityDescription } from '../../contract/entity';
import { useLiveQuery } from '../live-query';
import type { ListSearch } from './list-search';

/** The current key of the record just added, or null; opens its page once. */
export function useRevealedRow(
  entity: EntityDescription,
  params: ListSearch,
  query: ListQuery,
): string | null {
  const navigate = useNavigate();
  const asked = useRouterState({ select: (s) => s.location.state.reveal });
  const [revealed, setRevealed] = useState<string | null>(null);

  // biome-ignore lint/correctness/useExhaustiveDependencies: only a new request counts; the list's query is read as it was when it opened
  useEffect(() => {
    if (!asked) return;
    let live = true;
    void pageOfRecord(entity, { ...query, page: undefined }, asked).then((found) => {
      if (!live) return;
      setRevealed(asked);
      // The page goes into the address; the one-off request leaves the router state.
      void navigate({
        to: '.',
        search: { ...params, page: found && found.page > 1 ? found.page : undefined } as never,
        state: (s) => ({ ...s, reveal: undefined }),
        replace: true,
      });
    });
    return () => {
      live = false;
    };
  }, [asked]);

  return useLiveQuery(() => (revealed ? currentKey(revealed) : null), [revealed]) ?? null;
}
