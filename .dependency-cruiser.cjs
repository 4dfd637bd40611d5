/**
 * The layers of the code, enforced by `npm run lint` (ARCHITECTURE.md, "Folders"):
 *
 *   contract <- db <- sync <- app <- ui <- routes
 *
 * Each layer imports only from layers to its left; the UI and routes may name db and sync
 * types, never call them (they go through src/app). src/contract, src/db and src/sync import
 * no React (the service worker bundles them; tsconfig.worker.json keeps the DOM out of them
 * too). The server shares only the contract. No import cycles, type-only imports included.
 *
 * server/ has layers of its own, bottom to top (SERVER_LAYERS below): a folder imports only
 * folders of lower layers, type-only imports included; folders of one layer import none of
 * each other. Every server file lives in one of these folders.
 */
const layer = (name) => `^src/${name}/`;

/** The server's layers, bottom first, each with why it sits where it does. */
const SERVER_LAYERS = [
  [['kit'], 'Helpers that know no HTTP, database or domain (deadlines, secret comparison).'],
  [['http'], 'HTTP plumbing without a database: replies, bodies, guards, headers, static files.'],
  [['migrations'], 'The schema, as SQL text.'],
  [['db'], 'Opens PGlite or PostgreSQL and runs the migrations.'],
  [['ops'], 'Logs, metrics, readiness, timeouts, shutdown: around every request, below every feature.'],
  [['storage'], 'Where files live (a folder or a bucket), named by upload folder.'],
  [
    ['audit', 'auth', 'backup', 'geography', 'uploads'],
    'Features on db, storage and http, independent of each other and of the entities.',
  ],
  [['live'], 'Tells signed-in devices of each commit (Server-Sent Events), from the database.'],
  [['accounts'], 'Administrators, their roles and passwords, managed by an Owner: on auth and audit.'],
  [['entities'], 'The handler contract, the SQL shape of a described entity, and its reads.'],
  [['entity-writes'], 'Add, update, delete, actions and sets, with the checks a write runs.'],
  [['api'], 'Runs handlers over HTTP: the entities route table, the write pipeline, batches.'],
  [['seed'], 'Demo and scale data, written through the lower layers.'],
  [['app'], 'Assembles the app, starts the server, reads the configuration.'],
  [['commands'], 'The entry points the build bundles (dist-server/*.js).'],
];
const SERVER_FOLDERS = SERVER_LAYERS.flatMap(([folders]) => folders);
const serverPath = (folders) => `^server/(${folders.join('|')})/`;

/** For each server folder: nothing of a higher layer, nor of another folder of its own layer. */
const serverLayerRules = SERVER_LAYERS.flatMap(([folders, why], rank) => {
  const above = SERVER_LAYERS.slice(rank + 1).flatMap(([f]) => f);
  return folders.flatMap((folder) => {
    const forbidden = [...above, ...folders.filter((f) => f !== folder)];
    if (forbidden.length === 0) return [];
    return {
      name: `server-${folder}-imports-only-below`,
      comment: `server/${folder}: ${why} It imports no folder above it or beside it.`,
      severity: 'error',
      from: { path: `^server/${folder}/` },
      to: { path: serverPath(forbidden) },
    };
  });
});

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
    forbid(
      'live-queries-through-one-hook',
      'Screens read live data through src/ui/live-query.ts, which runs every query as an async function (Dexie watches reads across awaits only then).',
      '^src/(?!ui/live-query\\.ts$)',
      '^node_modules/dexie-react-hooks/',
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
      'The service worker and the list, CSV and sync workers bundle contract, db and sync only.',
      '^src/(sw|list-worker|csv-worker|sync-worker)\\.ts$',
      '^src/(app|ui|routes)/',
    ),
    forbid(
      'server-shares-only-the-contract',
      'The server imports only the shared contract from src.',
      '^server/',
      '^src/(db|sync|app|ui|routes)/',
    ),
    ...serverLayerRules,
    {
      name: 'server-files-in-a-layer',
      comment: 'Every server file lives in a folder of SERVER_LAYERS, so that its layer is known.',
      severity: 'error',
      from: { path: '^server/', pathNot: serverPath(SERVER_FOLDERS) },
      to: {},
    },
    {
      name: 'server-imports-files-in-a-layer',
      comment: 'Every server file lives in a folder of SERVER_LAYERS, so that its layer is known.',
      severity: 'error',
      from: {},
      to: { path: '^server/', pathNot: serverPath(SERVER_FOLDERS) },
    },
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
