/**
 * The layers of the code, enforced by `npm run lint` (ARCHITECTURE.md, "Folders"):
 *
 *   contract <- db <- sync <- app <- ui <- routes
 *
 * Each layer imports only from layers to its left; the UI and routes may name db and sync
 * types, never call them (they go through src/app). src/contract, src/db and src/sync import
 * no React (the service worker bundles them; tsconfig.worker.json keeps the DOM out of them
 * too). The server shares only the contract. No import cycles, type-only imports included.
 */
const layer = (name) => `^src/${name}/`;

/** Forbids `from` to import `to` at run time (type-only imports allowed where noted). */
const forbid = (name, comment, from, to, typesAllowed = false) => ({
  name,
  comment,
  severity: 'error',
  from: { path: from },
  to: typesAllowed ? { path: to, dependencyTypesNot: ['type-only'] } : { path: to },
});

const REACT = '^node_modules/(react|react-dom|dexie-react-hooks|@tanstack/react-router|@tiptap/react)/';

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'A cycle, even through type-only imports, means something lives in the wrong file.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    forbid(
      'contract-is-the-base',
      'The contract imports nothing of ours.',
      layer('contract'),
      '^(src/(db|sync|app|ui|routes)|server)/',
    ),
    forbid(
      'db-below-sync',
      'The local store knows nothing of sync, app or UI.',
      layer('db'),
      '^src/(sync|app|ui|routes)/',
    ),
    forbid('sync-below-app', 'Sync knows nothing of the window.', layer('sync'), '^src/(app|ui|routes)/'),
    forbid('app-below-ui', 'The app layer knows nothing of screens.', layer('app'), '^src/(ui|routes)/'),
    forbid(
      'ui-below-routes',
      'Generic screens know nothing of the route table.',
      layer('ui'),
      '^src/routes/',
    ),
    forbid(
      'screens-through-app',
      'Screens reach the local store and sync only through src/app; they may name their types.',
      '^src/(ui|routes)/',
      '^src/(db|sync)/',
      true,
    ),
    forbid(
      'no-react-below-ui',
      'contract, db, sync and app run in the service worker or without React.',
      '^src/(contract|db|sync|app)/',
      REACT,
    ),
    forbid(
      'worker-without-window',
      'The service worker, the list worker and the CSV worker bundle contract, db and sync only.',
      '^src/(sw|list-worker|csv-worker)\\.ts$',
      '^src/(app|ui|routes)/',
    ),
    forbid(
      'server-shares-only-the-contract',
      'The server imports only the shared contract from src.',
      '^server/',
      '^src/(db|sync|app|ui|routes)/',
    ),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|dist-server)/' },
    // Type-only imports count, so that a cycle closed by one is found too.
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
  },
};
