/** How a description file makes its description (src/contract/entities/*.ts). */
import type { EntityDescription } from './entity-types';

/** Identity helper that keeps literal types while checking the shape. */
export function defineEntity<const E extends EntityDescription>(entity: E): E {
  return entity;
}
