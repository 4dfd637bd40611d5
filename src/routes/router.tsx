/**
 * The route table (spec §2). '/' goes to /login; every other route except /login sits
 * behind the guard, which checks the stored isAuthenticated flag. Entity screens come from the
 * entity catalogue (routes only) and load on demand with their descriptions.
 */
import {
  createRootRoute,
  createRoute,
  createRouter,
  Outlet,
  redirect,
  useSearch,
} from '@tanstack/react-router';
import { type ComponentProps, lazy } from 'react';
import { type AuditSearch, validateAuditSearch } from '../app/audit/audit-search';
import { catalogue } from '../app/catalogue/built-catalogue';
import { startsOnEntityScreen } from '../app/first-screen';
import { isSignedIn } from '../app/session';
import { Layout } from '../ui/layout/Layout';
import { listSearchSchema } from '../ui/list/list-search';
import { routeIdParams } from '../ui/route-id';
import { HomepageScreen } from './homepage';
import { ListAddressErrorScreen } from './list-address-error';
import { LoginScreen } from './login';
import { NotFoundScreen } from './not-found';

const OutboxScreen = lazy(() => import('./outbox').then((m) => ({ default: m.OutboxScreen })));
/** The entity screens' module once loaded: rendered at once from then on. */
let entityScreens: typeof import('./entity-screen') | undefined;
const loadEntityScreen = () => import('./entity-screen').then((m) => (entityScreens = m));
const LazyEntityScreen = lazy(loadEntityScreen);
/**
 * The entity screens, without suspending once their module is in: the router loads it before a
 * navigation renders (the routes' `preload`), and a lazy component suspends at its first render
 * even then, which held a list's first opening 300 ms (React reveals suspended content no
 * sooner).
 */
function EntityScreen(props: ComponentProps<typeof LazyEntityScreen>) {
  return entityScreens ? <entityScreens.default {...props} /> : <LazyEntityScreen {...props} />;
}
const preloadEntityScreen = () => loadEntityScreen().then(() => undefined);
// Started on an entity's screen (a list reopened offline, a bookmark): its code is fetched and
// compiled while the layout renders, not after it asks. (Placeholders load it for nothing.)
if (startsOnEntityScreen()) void loadEntityScreen();
// Owner-only screens: the gate (accounts/owner-gate.tsx) loads with them, not in the first load.
const AuditScreen = lazy(() =>
  import('./accounts/owner-gate').then((m) => ({ default: m.GatedAuditScreen })),
);
const DuplicatesScreen = lazy(() => import('./duplicates').then((m) => ({ default: m.DuplicatesScreen })));
const AccountScreen = lazy(() => import('./accounts/account').then((m) => ({ default: m.AccountScreen })));
const AdministratorsScreen = lazy(() =>
  import('./accounts/owner-gate').then((m) => ({ default: m.GatedAdministratorsScreen })),
);

const rootRoute = createRootRoute({
  component: Outlet,
  notFoundComponent: NotFoundScreen,
});

const indexRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/',
  beforeLoad: () => {
    throw redirect({ to: '/login' });
  },
});

const loginRoute = createRoute({ getParentRoute: () => rootRoute, path: '/login', component: LoginScreen });

const guarded = createRoute({
  getParentRoute: () => rootRoute,
  id: 'guarded',
  beforeLoad: () => {
    if (!isSignedIn()) throw redirect({ to: '/login' });
  },
  component: Layout,
});

const guardedChildren = [
  createRoute({ getParentRoute: () => guarded, path: '/homepage', component: HomepageScreen }),
  createRoute({ getParentRoute: () => guarded, path: '/outbox', component: OutboxScreen }),
  createRoute({
    getParentRoute: () => guarded,
    path: '/audit',
    validateSearch: validateAuditSearch,
    // The search is read here, in the first load, and handed over: the router's search hooks
    // imported by the lazy screen itself made the bundler split the router out of the first
    // load's chunk (+2.4 KB gzip).
    component: () => <AuditScreen search={useSearch({ strict: false }) as AuditSearch} />,
  }),
  createRoute({ getParentRoute: () => guarded, path: '/duplicates', component: DuplicatesScreen }),
  createRoute({ getParentRoute: () => guarded, path: '/account', component: AccountScreen }),
  createRoute({
    getParentRoute: () => guarded,
    path: '/administrators',
    component: AdministratorsScreen,
  }),
  ...catalogue.screens.map(({ path, screen, entity, relation }) =>
    createRoute({
      getParentRoute: () => guarded,
      path,
      ...(screen === 'list' || screen === 'picker'
        ? { validateSearch: listSearchSchema, errorComponent: ListAddressErrorScreen }
        : {}),
      // A record's id in the route: decoded by the router; one that is not Base64 is not found
      // (shown inside the layout, with the menus).
      ...(path.includes('$id') ? { params: routeIdParams, notFoundComponent: NotFoundScreen } : {}),
      component: Object.assign(
        () => <EntityScreen entity={entity} screen={screen} relation={relation} path={path} />,
        { preload: preloadEntityScreen },
      ),
    }),
  ),
];

const routeTree = rootRoute.addChildren([indexRoute, loginRoute, guarded.addChildren(guardedChildren)]);

export const router = createRouter({ routeTree, defaultPreload: 'intent' });
