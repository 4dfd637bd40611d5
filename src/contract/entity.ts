/**
 * The declarative description of one entity. One object per entity drives the server's
 * handlers, the local store's schema, pull, mutations, and the generic list and form screens.
 * Descriptions are plain data (no React, no DOM) so the server, the service worker and the
 * window all read the same thing.
 *
 * The legacy API is irregular, and the irregularities are data here, not special cases in
 * code: a path told apart by a query parameter (`index.php?type=insert`), wire names that
 * differ per operation, an id parameter named unlike the key (`type_id` for `id`), a get reply
 * that is flat instead of wrapped, operations an entity does not have, endpoints answering one
 * field, single documents without ids, sets of ids with their own endpoints (assignments), and
 * the screens' own texts and columns.
 *
 * The language lives in description/: the types of fields (field-types.ts), of lists and
 * actions (list-types.ts) and of the description itself (entity-types.ts), the builder
 * (define.ts) and what code derives from a description (derived.ts). This module is their one
 * door: import from here.
 */

export * from './description/define';
export * from './description/derived';
export type * from './description/entity-types';
export type * from './description/field-types';
export type * from './description/list-types';
