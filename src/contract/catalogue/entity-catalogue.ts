/**
 * The entity catalogue: what the first screen needs to know of every entity, and nothing
 * more: the routes of its screens (for the router) and its local tables (for the local
 * store). The full descriptions (fields, endpoints, columns, texts) load with the screens that
 * use them. The catalogue is computed from the descriptions at build time
 * (scripts/entity-catalogue-plugin.ts), so the two cannot disagree.
 */
import type { EntityDescription } from '../entity';
import type { Menu } from './menu-entry';

/** 'picker': the list of a parent's records leading to an entity's screens inside one parent (/bookpages). */
export type ScreenKind = 'list' | 'add' | 'edit' | 'relation' | 'picker' | 'import';

export interface CatalogueScreen {
  /** The route, with `$id` where the record's encoded id goes. */
  path: string;
  screen: ScreenKind;
  entity: string;
  /** For relation screens: the relation's name. */
  relation?: string;
  /**
   * Screens inside one parent record (EntityRoutes.within): the parent entity whose encoded id
   * `$id` is (the list and add screens of book pages take a book's).
   */
  parent?: string;
}

export interface Catalogue {
  /** Dexie's schema version and table definitions (src/db/database.ts). */
  schemaVersion: number;
  stores: Readonly<Record<string, string>>;
  screens: readonly CatalogueScreen[];
  /** Each entity's local table, by entity name. */
  tables: Readonly<Record<string, string>>;
  /** Every set relation: its owner's table, its name (the owner row's field) and its target entity. */
  sets: readonly { table: string; relation: string; target: string }[];
  /** The top bar's menus, from the descriptions' menu entries (menus.ts). */
  menus: readonly Menu[];
  /** The same menus as each role sees them, by role (menus.ts, menusByRole). */
  roleMenus: Readonly<Record<string, readonly Menu[]>>;
  /**
   * What the list index keeps of each entity's rows (src/db/list-index/projection.ts): the
   * window's store keeps the index from its first write without loading the descriptions.
   */
  lists: readonly { table: string; key: string; fields: readonly string[] }[];
}

export function catalogueScreens(entities: readonly EntityDescription[]): CatalogueScreen[] {
  const screens: CatalogueScreen[] = [];
  for (const e of entities) {
    const { list, add, edit, within } = e.routes;
    // Inside one parent: the list and add routes take the parent's id.
    const parent = within ? e.fields[within.field]?.ref : undefined;
    const scoped = (route: string) =>
      parent ? { path: `${route}/$id`, parent } : ({ path: route } as { path: string });
    if (within?.picker) screens.push({ path: within.picker.route, screen: 'picker', entity: e.name });
    if (list) screens.push({ ...scoped(list), screen: 'list', entity: e.name });
    if (add && e.api.add) screens.push({ ...scoped(add), screen: 'add', entity: e.name });
    if (e.api.add)
      for (const alias of e.routes.addAliases ?? [])
        screens.push({ path: alias.path, screen: 'add', entity: e.name });
    // A single document's edit route is the whole route; others carry the record's id.
    if (edit && e.api.update)
      screens.push({ path: e.single ? edit : `${edit}/$id`, screen: 'edit', entity: e.name });
    // A CSV import, where the entity declares one.
    if (e.routes.import && e.api.add)
      screens.push({ path: e.routes.import, screen: 'import', entity: e.name });
    for (const [name, rel] of Object.entries(e.relations ?? {}))
      screens.push({ path: `${rel.route}/$id`, screen: 'relation', entity: e.name, relation: name });
  }
  return screens;
}

export function catalogueTables(entities: readonly EntityDescription[]): Record<string, string> {
  return Object.fromEntries(entities.map((e) => [e.name, e.table]));
}

export function catalogueSets(entities: readonly EntityDescription[]): Catalogue['sets'] {
  return entities.flatMap((e) =>
    Object.entries(e.relations ?? {}).map(([relation, rel]) => ({
      table: e.table,
      relation,
      target: rel.target,
    })),
  );
}
