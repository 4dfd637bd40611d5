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
import { catalogueMenus } from '../../contract/catalogue/menus';
import { entities } from '../../contract/entities';
import { LOCAL_SCHEMA_VERSION, storesFor } from '../../db/database';
import { listProjections } from '../../db/list-index/projection';

export function buildCatalogue(): Catalogue {
  return {
    schemaVersion: LOCAL_SCHEMA_VERSION,
    stores: storesFor(entities),
    screens: catalogueScreens(entities),
    tables: catalogueTables(entities),
    sets: catalogueSets(entities),
    menus: catalogueMenus(entities),
    lists: listProjections(entities),
  };
}
