/**
 * The relations between described entities, read from their ref fields once at start: who a
 * row's parents are (for their names in list rows and the existence check on writes) and who
 * its children are (for the check before a delete, and to re-send children whose parent was
 * renamed). A description naming an unknown parent fails here, at start, not on a request.
 */
import type { EntityDescription, FieldSpec } from '../../src/contract/entity';
import { refFields } from '../../src/contract/entity';
import { type ChildLink, childLinks } from '../../src/contract/still-used';

export interface ParentLink {
  /** The child's column holding the parent's id. */
  field: string;
  spec: FieldSpec & { ref: string };
  parent: EntityDescription;
}

export type { ChildLink };

export interface EntityGraph {
  entities: readonly EntityDescription[];
  byName(name: string): EntityDescription;
  parents(entity: EntityDescription): readonly ParentLink[];
  children(entity: EntityDescription): readonly ChildLink[];
}

export function entityGraph(entities: readonly EntityDescription[]): EntityGraph {
  const byName = (name: string) => {
    const found = entities.find((e) => e.name === name);
    if (!found) throw new Error(`Unknown entity in a description: ${name}`);
    return found;
  };
  const parents = new Map<string, ParentLink[]>();
  for (const entity of entities) {
    parents.set(
      entity.name,
      refFields(entity).map(([field, spec]) => ({ field, spec, parent: byName(spec.ref) })),
    );
  }
  // Who names whom, as the device sees it (nearest first): contract/still-used.ts.
  const children = new Map<string, ChildLink[]>(entities.map((e) => [e.name, childLinks(e, entities)]));
  return {
    entities,
    byName,
    parents: (entity) => parents.get(entity.name) ?? [],
    children: (entity) => children.get(entity.name) ?? [],
  };
}
