/**
 * Computes the entity catalogue (src/contract/catalogue/entity-catalogue.ts) from the full descriptions. Run
 * at build time only, by scripts/entity-catalogue-plugin.ts; the app imports the result as
 * `virtual:entity-catalogue` (built-catalogue.ts), so the descriptions stay out of the first load.
 */
import {
  type Catalogue,
  catalogueScreens,
  catalogueSets,
  catalogueTables,
} from '../../contract/catalogue/entity-catalogue';
import { catalogueMenus, menusByRole } from '../../contract/catalogue/menus';
import { entities } from '../../contract/entities';
import { LOCAL_SCHEMA_VERSION, storesFor } from '../../db/database';
import { listProjections } from '../../db/list-index/projection';

export function buildCatalogue(): Catalogue {
  const screens = catalogueScreens(entities);
  const menus = catalogueMenus(entities);
  return {
    schemaVersion: LOCAL_SCHEMA_VERSION,
    stores: storesFor(entities),
    screens,
    tables: catalogueTables(entities),
    sets: catalogueSets(entities),
    menus,
    roleMenus: menusByRole(menus, screens),
    lists: listProjections(entities),
  };
}
