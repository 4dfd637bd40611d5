/** Generated at build time from the entity descriptions (scripts/entity-catalogue-plugin.ts). */
declare module 'virtual:entity-catalogue' {
  import type { Catalogue } from '../../contract/catalogue/entity-catalogue';
  export const catalogue: Catalogue;
}
