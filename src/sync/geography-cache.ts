/**
 * The geography lists (src/contract/geography.ts) on the device. Countries and every state
 * are small (a few hundred KB) and are kept after sign-in, refreshed weekly; a state's cities
 * are read when the state is chosen and kept. Offline, what was kept is all there is: the
 * city field takes typed text when a state's cities are not on the device.
 *
 * The service is our server by default (`{API root}/geo`), or the external service a legacy
 * deployment uses (src/sync/sync-settings.ts), through its own API client.
 */
import { type City, type Country, geoPaths, type State } from '../contract/geography';
import type { LocalDb } from '../db/database';
import { readReference, referenceReadAt, writeReference } from '../db/reference-lists';
import type { ApiClient } from './api/api-client';

const WEEK_MS = 7 * 24 * 60 * 60 * 1000;

export type GeoRead<T> = { ok: true; items: T[] } | { ok: false; reason: 'unreachable' | 'refused' };

async function readThrough<T>(db: LocalDb, geo: ApiClient, path: string): Promise<GeoRead<T>> {
  const outcome = await geo.getList(path);
  if (outcome.kind === 'list') {
    await writeReference(db, path, outcome.items);
    return { ok: true, items: outcome.items as T[] };
  }
  return { ok: false, reason: outcome.kind === 'unreachable' ? 'unreachable' : 'refused' };
}

/** Countries and every state, unless the device read them less than a week ago. */
export async function refreshGeography(db: LocalDb, geo: ApiClient, now = Date.now()): Promise<void> {
  for (const path of [geoPaths.countries(), geoPaths.allStates()]) {
    const readAt = await referenceReadAt(db, path);
    if (readAt !== null && now - readAt < WEEK_MS) continue;
    const read = await readThrough(db, geo, path);
    // Failures loading location data are only logged (spec §8).
    if (!read.ok) console.warn(`Geography ${path}: ${read.reason}`);
  }
}

export const countries = (db: LocalDb) => readReference<Country>(db, geoPaths.countries());

/** A country's states ('*': every state), from every state kept on the device. */
export async function statesOf(db: LocalDb, country: string): Promise<State[] | null> {
  const all = await readReference<State>(db, geoPaths.allStates());
  return all && (country === '*' ? all : all.filter((s) => s.country_code === country));
}

/** A state's cities: kept ones, else read now (online) and kept; null when neither is possible. */
export async function citiesOf(
  db: LocalDb,
  geo: ApiClient | null,
  country: string,
  state: string,
): Promise<City[] | null> {
  const path = geoPaths.cities(country, state);
  const kept = await readReference<City>(db, path);
  if (kept || !geo) return kept;
  const read = await readThrough<City>(db, geo, path);
  if (!read.ok) console.warn(`Geography ${path}: ${read.reason}`);
  return read.ok ? read.items : null;
}
