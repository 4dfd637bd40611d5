/**
 * The geography reference lists (spec §7 "External geography service", api-contract §3.19):
 * read-only lists in the shape of the external countries/states/cities service the original
 * called, bare JSON lists without an envelope. Our server answers them under the API root
 * (`{API root}/geo/...`); a legacy deployment points the app at the external service instead
 * (src/sync/sync-settings.ts). Records keep the legacy values: the country's `iso2`, the state's
 * `iso2`, the city's `name`.
 */
export interface Country {
  id: number;
  name: string;
  iso2: string;
}

export interface State {
  id: number;
  name: string;
  iso2: string;
  /** Only in the list of every state (`states`): the country it belongs to. */
  country_code?: string;
}

export interface City {
  id: number;
  name: string;
}

/** Where our server answers, under the API root. */
export const GEO_PREFIX = 'geo';

/** The lists' paths, relative to the service's base (ours: `{API root}/geo`). */
export const geoPaths = {
  countries: () => 'countries',
  /** Every state of every country at once: what the device keeps after sign-in. */
  allStates: () => 'states',
  states: (country: string) => `countries/${encodeURIComponent(country)}/states`,
  cities: (country: string, state: string) =>
    `countries/${encodeURIComponent(country)}/states/${encodeURIComponent(state)}/cities`,
} as const;

/**
 * Names for location codes: the country's and the state's names, the city as kept; a code
 * with no name stays as it is. Found by code in maps built once per list of countries and
 * states, not by scanning them: a list asks for every row, and the states of every country are
 * thousands. The first of two with the same code names it.
 */
export function locationNamer(
  countries: readonly Country[],
  states: readonly State[],
): (country: unknown, state: unknown, city: unknown) => string {
  const countryNames = firstByKey(countries, (x) => x.iso2);
  const stateNames = firstByKey(
    states.filter((x) => x.country_code !== undefined),
    (x) => `${x.country_code} ${x.iso2}`,
  );
  return (country, state, city) => {
    const c = String(country ?? '');
    const s = String(state ?? '');
    const countryName = countryNames.get(c) ?? c;
    const stateName = stateNames.get(`${c} ${s}`) ?? s;
    return [String(city ?? ''), stateName, countryName].filter(Boolean).join(', ');
  };
}

function firstByKey<T extends { name: string }>(
  list: readonly T[],
  key: (x: T) => string,
): Map<string, string> {
  const names = new Map<string, string>();
  for (const x of list) if (!names.has(key(x))) names.set(key(x), x.name);
  return names;
}
