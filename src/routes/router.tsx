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
import type { ReactNode } from 'react';
import { type AuditSearch, validateAuditSearch } from '../app/audit/audit-search';
import { catalogue } from '../app/catalogue/built-catalogue';
import { startsOnEntityScreen } from '../app/first-screen';
import { isSignedIn } from '../app/session';
import { Layout } from '../ui/layout/Layout';
import { listSearchSchema } from '../ui/list/list-search';
import { routeIdParams } from '../ui/route-id';
import { HomepageScreen } from './homepage';
import { lazyScreen } from './lazy-screen';
import { ListAddressErrorScreen } from './list-address-error';
import { LoginScreen } from './login';
import { NotFoundScreen } from './not-found';

const OutboxScreen = lazyScreen(() => import('./outbox'), 'OutboxScreen');
const EntityScreen = lazyScreen(() => import('./entity-screen'), 'default');
// Started on an entity's screen (a list reopened offline, a bookmark): its code is fetched and
// compiled while the layout renders, not after it asks. (Placeholders load it for nothing.)
if (startsOnEntityScreen()) void EntityScreen.preload();
// Owner-only screens: the gate (accounts/owner-gate.tsx) loads with them, not in the first load.
const AuditScreen = lazyScreen(() => import('./accounts/owner-gate'), 'GatedAuditScreen');
const DuplicatesScreen = lazyScreen(() => import('./duplicates'), 'DuplicatesScreen');
const AccountScreen = lazyScreen(() => import('./accounts/account'), 'AccountScreen');
const AdministratorsScreen = lazyScreen(() => import('./accounts/owner-gate'), 'GatedAdministratorsScreen');

/** A route's component that renders a lazy screen with props: the router preloads the screen with it. */
const rendering = (screen: { preload: () => Promise<void> }, render: () => ReactNode) =>
  Object.assign(render, { preload: screen.preload });

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
    component: rendering(AuditScreen, () => (
      <AuditScreen search={useSearch({ strict: false }) as AuditSearch} />
    )),
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
      component: rendering(EntityScreen, () => (
        <EntityScreen entity={entity} screen={screen} relation={relation} path={path} />
      )),
    }),
  ),
];

const routeTree = rootRoute.addChildren([indexRoute, loginRoute, guarded.addChildren(guardedChildren)]);

export const router = createRouter({ routeTree, defaultPreload: 'intent' });
