/** Every entity belongs to exactly one of the Editor's and the School manager's areas; the texts name the role. */
import { describe, expect, it } from 'vitest';
import { cannotChange, mayChange, ROLES } from '../../../src/contract/accounts/roles';
import { entities, schoolEntity } from '../../../src/contract/entities';

describe('roles', () => {
  it('give every entity to the Owner and to exactly one of Editor and School manager, none to a Viewer', () => {
    for (const entity of entities) {
      expect(mayChange('Owner', entity), entity.name).toBe(true);
      expect(mayChange('Viewer', entity), entity.name).toBe(false);
      expect(
        [mayChange('Editor', entity), mayChange('School manager', entity)].filter(Boolean),
        entity.name,
      ).toHaveLength(1);
    }
  });

  it('name the role and what it cannot change, with its article', () => {
    expect(cannotChange('Editor', schoolEntity)).toBe('An Editor cannot change schools.');
    expect(ROLES.map((r) => cannotChange(r, schoolEntity).split(' cannot')[0])).toEqual([
      'An Owner',
      'An Editor',
      'A School manager',
      'A Viewer',
    ]);
  });
});
