/**
 * Every route of spec §2 opens a screen built from the entity catalogue. (The router once
 * filled the routes no entity had built yet with placeholder screens; every route is built now,
 * so the list of the spec's routes lives here, where a route that goes missing fails.)
 */
import { describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../../src/app/catalogue/catalogue-source';
import { SPEC_ROUTES } from './spec-routes';

describe('the spec’s routes', () => {
  it('each is a screen of the catalogue', () => {
    const built = new Set(buildCatalogue().screens.map((s) => s.path));
    expect(SPEC_ROUTES.map(([path]) => path).filter((path) => !built.has(path))).toEqual([]);
    expect(SPEC_ROUTES.length).toBeGreaterThan(40);
  });
});
