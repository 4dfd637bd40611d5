/**
 * The list routes' search is the Standard Schema the router validates with: what a good
 * address becomes, and the words a bad page, size or direction is refused with (the router's
 * error screen shows them, list-address-error.tsx).
 */
import { describe, expect, it } from 'vitest';
import { listSearchSchema } from '../../../src/ui/list/list-search';

const validate = (raw: Record<string, unknown>) => listSearchSchema['~standard'].validate(raw);

const refusal = (raw: Record<string, unknown>) => {
  const result = validate(raw);
  if (!('issues' in result)) throw new Error('not refused');
  return result.issues.map((issue) => issue.message);
};

const read = (raw: Record<string, unknown>) => {
  const result = validate(raw);
  if ('issues' in result) throw new Error(result.issues.map((i) => i.message).join(' '));
  return result.value;
};

describe('the list search schema', () => {
  it('reads a good address: page and size as numbers, page 1 left out, filters as text', () => {
    expect(read({ page: 3, limit: '25', dir: 'desc', sort: 'class_name', status: 'Enabled' })).toEqual({
      page: 3,
      limit: 25,
      dir: 'desc',
      sort: 'class_name',
      status: 'Enabled',
      search: undefined,
    });
    expect(read({ page: 1, search: 42 })).toMatchObject({
      page: undefined,
      search: '42',
    });
    expect(read({ page: '', limit: '', filter: '' })).toEqual({
      page: undefined,
      limit: undefined,
      search: undefined,
      sort: undefined,
      dir: undefined,
    });
  });

  it('refuses a bad page, size or direction with words that say which and how', () => {
    expect(refusal({ page: 'abc' })).toEqual([
      'The address has page=abc: it must be a whole number from 1 to 9007199254740991.',
    ]);
    expect(refusal({ page: 0 })).toEqual([
      'The address has page=0: it must be a whole number from 1 to 9007199254740991.',
    ]);
    expect(refusal({ limit: 2.5 })).toEqual([
      'The address has limit=2.5: it must be a whole number from 1 to 1000.',
    ]);
    expect(refusal({ limit: 5000 })).toEqual([
      'The address has limit=5000: it must be a whole number from 1 to 1000.',
    ]);
    expect(refusal({ dir: 'up' })).toEqual(['The address has dir=up: it must be asc or desc.']);
  });
});
