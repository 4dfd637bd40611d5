/**
 * The entity catalogue as the window's first screen reads it (routes and local tables), and
 * the full descriptions, loaded on demand with the screens that need them.
 */
import { catalogue as generated } from 'virtual:entity-catalogue';
import type { Catalogue } from '../../contract/catalogue/entity-catalogue';
import type { EntityDescription } from '../../contract/entity';

export const catalogue: Catalogue = generated;

/** Every full description, in one chunk loaded once. */
export const loadEntities = () => import('../../contract/entities');

export async function loadEntity(name: string): Promise<EntityDescription> {
  return (await loadEntities()).entityByName(name);
}
