/**
 * What some list cells show by name rather than by the codes or ids a row keeps: a location's
 * country and state names, a set's records by their titles (Assigned Books: a few, then '+N
 * more'). Read once per list (not once per cell) and shared with the cells through context.
 */

import { createContext, type ReactNode, useContext } from 'react';
import { recordTitles } from '../../app/records';
import { entityByName } from '../../contract/entities';
import type { EntityDescription } from '../../contract/entity';
import { useLocationNames } from '../fields/location-data';
import { useLiveQuery } from '../live-query';

interface Lookups {
  location(country: unknown, state: unknown, city: unknown): string;
  /** A set of ids as its records' titles. */
  titles(target: string, ids: unknown): string;
}

const MAX_NAMES = 3;

const plain: Lookups = {
  location: (country, state, city) =>
    [city, state, country]
      .map((v) => String(v ?? ''))
      .filter(Boolean)
      .join(', '),
  titles: (_target, ids) => (Array.isArray(ids) ? ids.join(', ') : ''),
};

const LookupContext = createContext<Lookups>(plain);

/** Names a few ids, then says how many more there are. */
export function someNames(names: readonly string[]): string {
  if (names.length <= MAX_NAMES) return names.join(', ');
  return `${names.slice(0, MAX_NAMES).join(', ')} +${names.length - MAX_NAMES} more`;
}

function TitledLookups({ targets, children }: { targets: readonly string[]; children: ReactNode }) {
  const location = useLocationNames();
  const maps =
    useLiveQuery(
      async () =>
        Object.fromEntries(
          await Promise.all(targets.map(async (t) => [t, await recordTitles(entityByName(t))] as const)),
        ),
      [targets.join()],
    ) ?? {};
  const titles = (target: string, ids: unknown) => {
    const map = maps[target];
    const list = Array.isArray(ids) ? ids.map((id) => map?.get(String(id)) ?? String(id)) : [];
    return someNames(list);
  };
  return <LookupContext.Provider value={{ location, titles }}>{children}</LookupContext.Provider>;
}

/** Provides the lookups a list's columns need (none: the cells show what the row has). */
export function ColumnLookups({ entity, children }: { entity: EntityDescription; children: ReactNode }) {
  const kinds = entity.list.columns.map((c) => c.kind);
  if (!kinds.includes('location') && !kinds.includes('relation')) return <>{children}</>;
  const targets = Object.values(entity.relations ?? {}).map((r) => r.target);
  return <TitledLookups targets={targets}>{children}</TitledLookups>;
}

export const useLookups = () => useContext(LookupContext);
