/**
 * A list's Location column names a row's country and state codes from the lists kept on the
 * device (src/contract/geography.ts): by code, the first of two with the same code, and
 * the code itself where no name is known.
 */
import { describe, expect, it } from 'vitest';
import { locationNamer } from '../../../src/contract/geography';

const countries = [
  { id: 1, name: 'India', iso2: 'IN' },
  { id: 2, name: 'Nigeria', iso2: 'NG' },
  { id: 3, name: 'India again', iso2: 'IN' },
];
const states = [
  { id: 10, name: 'Maharashtra', iso2: 'MH', country_code: 'IN' },
  { id: 11, name: 'Lagos', iso2: 'LA', country_code: 'NG' },
  { id: 12, name: 'Lagos again', iso2: 'LA', country_code: 'NG' },
  // The same code in another country names nothing here.
  { id: 13, name: 'Elsewhere', iso2: 'MH', country_code: 'NG' },
  { id: 14, name: 'No country', iso2: 'XX' },
];

describe('location names in a list', () => {
  const name = locationNamer(countries, states);

  it("names the country and the country's state, the city as kept", () => {
    expect(name('IN', 'MH', 'Pune')).toBe('Pune, Maharashtra, India');
    expect(name('NG', 'MH', '')).toBe('Elsewhere, Nigeria');
    expect(name('NG', 'LA', 'Ikeja')).toBe('Ikeja, Lagos, Nigeria');
  });

  it('keeps a code it cannot name, and leaves out what is empty', () => {
    expect(name('ZZ', 'QQ', 'Town')).toBe('Town, QQ, ZZ');
    expect(name('', 'XX', null)).toBe('XX');
    expect(name(undefined, undefined, undefined)).toBe('');
  });
});
