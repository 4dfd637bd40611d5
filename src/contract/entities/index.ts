import type { EntityDescription } from '../entity';
import { classEntity } from './class';

/**
 * Every entity, parents before children: pull walks this order so a child's parent is
 * already local when the child arrives.
 */
export const entities: readonly EntityDescription[] = [classEntity];

export function entityByName(name: string): EntityDescription {
  const found = entities.find((e) => e.name === name);
  if (!found) throw new Error(`Unknown entity: ${name}`);
  return found;
}

export { classEntity };
