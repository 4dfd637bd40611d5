/**
 * The ticked records of an assignment screen. The set as the server has it is fetched when the
 * device has none yet (a legacy server's lists); the boxes are pre-ticked from the record's
 * set once it is known, and from then on they are the administrator's. A set the device cannot
 * have (offline, never read) starts empty: the merge before sending keeps whatever the server
 * has that was not unticked here.
 */
import { useEffect, useState } from 'react';
import { fetchSetIfMissing } from '../../app/records';
import type { EntityDescription } from '../../contract/entity';
import type { Row } from '../data';
import { useNotify } from '../notices';

export function useTicked(
  entity: EntityDescription,
  target: EntityDescription,
  id: string,
  relation: string,
  record: Row | null | undefined,
) {
  const notify = useNotify();
  const [ticked, setTicked] = useState<Set<string> | null>(null);
  const [asked, setAsked] = useState(false);
  useEffect(() => {
    if (!id) return;
    void fetchSetIfMissing(entity, id, relation).then((outcome) => {
      // Spec §8: 'Failed to fetch assigned books' / 'Error fetching assigned books'.
      const what = `assigned ${target.names.many}`;
      if (outcome === 'failed') notify('error', `Failed to fetch ${what}`);
      if (outcome === 'error') notify('error', `Error fetching ${what}`);
      setAsked(true);
    });
  }, [entity, id, relation, target, notify]);
  const current = record?.[relation];
  useEffect(() => {
    if (ticked !== null || !record) return;
    if (Array.isArray(current)) setTicked(new Set(current.map(String)));
    else if (asked) setTicked(new Set());
  }, [current, ticked, record, asked]);

  const toggle = (key: string) =>
    setTicked((all) => {
      const next = new Set(all ?? []);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });
  /** null until the record's set is known. */
  return { ticked, toggle };
}
