/**
 * Geography for the window: the service's API client (ours, or the external one a legacy
 * build names), kept lists refreshed after sign-in, and the lists the location fields offer.
 */
import type { City, Country, State } from '../contract/geography';
import { GEO_PREFIX } from '../contract/geography';
import type { ApiClient } from '../sync/api/api-client';
import { API_ROOT, GEO_KEY, GEO_URL } from '../sync/sync-settings';
import { db } from './window-context';

let client: Promise<ApiClient> | undefined;

function geoApi(): Promise<ApiClient> {
  client ??= import('../sync/api/api-client').then(({ createApi }) =>
    GEO_URL
      ? createApi({ root: GEO_URL, headers: GEO_KEY ? { 'X-CSCAPI-KEY': GEO_KEY } : {}, credentials: 'omit' })
      : createApi({ root: `${API_ROOT}/${GEO_PREFIX}` }),
  );
  return client;
}

const geography = () => import('../sync/geography-cache');

/** After sign-in and at start: countries and states onto the device, if not fresh. */
export async function keepGeography(): Promise<void> {
  const [{ refreshGeography }, api] = await Promise.all([geography(), geoApi()]);
  await refreshGeography(db, api);
}

export async function readCountries(): Promise<Country[]> {
  return (await (await geography()).countries(db)) ?? [];
}

/** A country's states; '*' for every state of every country. */
export async function readStates(country: string): Promise<State[]> {
  if (!country) return [];
  return (await (await geography()).statesOf(db, country)) ?? [];
}

/** A state's cities, read now when online and not kept; null when they cannot be had (type the city). */
export async function readCities(country: string, state: string): Promise<City[] | null> {
  if (!country || !state) return [];
  const { citiesOf } = await geography();
  return citiesOf(db, navigator.onLine ? await geoApi() : null, country, state);
}
