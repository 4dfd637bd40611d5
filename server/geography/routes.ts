/**
 * The geography reference lists (src/contract/geography.ts) from the well-kept
 * `country-state-city` data package, in the external service's shape, behind the session like
 * every /api path. The package's data (about 150,000 cities) loads on the first request, not
 * at start.
 */
import type { Hono } from 'hono';
import type { City, Country, State } from '../../src/contract/geography';
import { GEO_PREFIX } from '../../src/contract/geography';
import type { AppEnv } from '../http/env';
import { fail, TEXT } from '../http/reply';

type Data = typeof import('country-state-city');
let data: Promise<Data> | undefined;
const load = () => {
  data ??= import('country-state-city');
  return data;
};

const CODE = /^[A-Za-z0-9-]{1,10}$/;

export function registerGeography(app: Hono<AppEnv>, apiPrefix: string): void {
  const at = `${apiPrefix}/${GEO_PREFIX}`;
  app.get(`${at}/countries`, async (c) => {
    const { Country } = await load();
    const list: Country[] = Country.getAllCountries().map((x, i) => ({
      id: i + 1,
      name: x.name,
      iso2: x.isoCode,
    }));
    return c.json(list);
  });
  app.get(`${at}/states`, async (c) => {
    const { State } = await load();
    const list: State[] = State.getAllStates().map((x, i) => ({
      id: i + 1,
      name: x.name,
      iso2: x.isoCode,
      country_code: x.countryCode,
    }));
    return c.json(list);
  });
  app.get(`${at}/countries/:country/states`, async (c) => {
    const { country } = c.req.param();
    if (!CODE.test(country)) return fail(c, 404, TEXT.notFound);
    const { State } = await load();
    const list: State[] = State.getStatesOfCountry(country.toUpperCase()).map((x, i) => ({
      id: i + 1,
      name: x.name,
      iso2: x.isoCode,
    }));
    return c.json(list);
  });
  app.get(`${at}/countries/:country/states/:state/cities`, async (c) => {
    const { country, state } = c.req.param();
    if (!CODE.test(country) || !CODE.test(state)) return fail(c, 404, TEXT.notFound);
    const { City } = await load();
    const list: City[] = City.getCitiesOfState(country.toUpperCase(), state).map((x, i) => ({
      id: i + 1,
      name: x.name,
    }));
    return c.json(list);
  });
}
