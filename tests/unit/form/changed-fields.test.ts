/**
 * What a change of the stored record means to an open edit form (src/ui/form/changed-fields.ts):
 * fields left alone follow the record, fields both changed are the administrator's to choose,
 * the form's own save says nothing, and a Reload keeps a cascade whole.
 */
import { describe, expect, it } from 'vitest';
import { schoolEntity } from '../../../src/contract/entities';
import { arrival, reloadedFields, storedValuesOf } from '../../../src/ui/form/changed-fields';

const shown = schoolEntity.form;
const record = {
  school_name: 'Green Valley',
  school_address: '1 Hill Road',
  password: '',
  email: 'office@green.example',
  contact_no: '9876543210',
  country: 'IN',
  state: 'MH',
  city: 'Mumbai',
  school_logo: 'logo.png',
};

describe('a stored record changed under an open form', () => {
  it('is nothing when no shown field changed (a password never counts)', () => {
    expect(arrival(schoolEntity, shown, record, { ...record, password: 'x' }, record)).toBeNull();
  });

  it('names the changed fields; those left alone follow, those typed in too are to choose', () => {
    const stored = { ...record, school_name: 'Green Valley High', school_address: '2 Hill Road' };
    const typed = { ...record, school_name: 'Green Valley School', email: 'desk@green.example' };
    expect(arrival(schoolEntity, shown, record, stored, typed)).toEqual({
      changed: ['school_name', 'school_address'],
      untouched: ['school_address'],
      unseen: ['school_name', 'school_address'],
      conflicts: ['school_name'],
      typedElsewhere: true,
    });
  });

  it('has nothing to say when the form shows what is stored (its own save)', () => {
    const saved = { ...record, school_name: 'Saved here' };
    expect(arrival(schoolEntity, shown, record, saved, saved)?.unseen).toEqual([]);
  });

  it('takes a file with its original name, and a level with the levels below it', () => {
    const stored = { ...record, school_logo: 'new.png', school_logo_name: 'crest.png' };
    expect(storedValuesOf(schoolEntity, stored, ['school_logo'])).toEqual({
      school_logo: 'new.png',
      school_logo_name: 'crest.png',
    });
    expect(reloadedFields(schoolEntity, ['country'], shown, true)).toEqual(['country', 'state', 'city']);
    expect(reloadedFields(schoolEntity, ['country'], shown, false)).toEqual(['country']);
  });
});
