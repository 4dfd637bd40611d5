/**
 * The location lists for the screens (src/app/location-lists.ts): countries and states kept on the
 * device after sign-in, a state's cities read when it is chosen and kept. Failures loading
 * them are only logged (spec §8).
 */
import { useEffect, useMemo, useState } from 'react';
import { readCities, readCountries, readStates } from '../../app/location-lists';
import { type City, type Country, locationNamer, type State } from '../../contract/geography';
import { useLiveQuery } from '../live-query';

/** Before the countries are read: the same empty list each render, so what is built from it is built once. */
const NO_COUNTRIES: readonly Country[] = [];

export function useCountries(): readonly Country[] {
  return useLiveQuery(readCountries, []) ?? NO_COUNTRIES;
}

export function useStates(country: string): State[] {
  return useLiveQuery(() => readStates(country), [country]) ?? [];
}

/** A state's cities; `null` when they cannot be had (offline and never read): type the city. */
export function useCities(country: string, state: string): City[] | null | undefined {
  const [cities, setCities] = useState<City[] | null | undefined>(undefined);
  useEffect(() => {
    let live = true;
    setCities(undefined);
    readCities(country, state).then(
      (list) => live && setCities(list),
      (error) => {
        console.warn('Cities not loaded', error);
        if (live) setCities(null);
      },
    );
    return () => {
      live = false;
    };
  }, [country, state]);
  return cities;
}

/** Names for a record's location codes (locationNamer), from the lists kept on the device. */
export function useLocationNames(): (country: unknown, state: unknown, city: unknown) => string {
  const countries = useCountries();
  const states = useLiveQuery(() => readStates('*'), []);
  return useMemo(() => locationNamer(countries, states ?? []), [countries, states]);
}
