/**
 * List, add and edit routes for an entity, from its description. The screens load on
 * demand so the first load carries only sign-in and the dashboard; the service worker
 * precaches them for offline use. The list's extra columns (Make Popular, Add Question)
 * come with the list screen's chunk.
 */
import { type AnyRoute, createRoute } from '@tanstack/react-router';
import { lazy } from 'react';
import type { EntityDescription } from '../contract/entity';
import { validateListSearch } from '../ui/list-search';

const ListScreen = lazy(() => import('./EntityListScreen'));
const AddForm = lazy(() => import('../ui/FormScreen').then((m) => ({ default: m.AddForm })));
const EditForm = lazy(() => import('../ui/FormScreen').then((m) => ({ default: m.EditForm })));

export function entityRoutes(parent: AnyRoute, entity: EntityDescription): AnyRoute[] {
  return [
    createRoute({
      getParentRoute: () => parent,
      path: entity.routes.list,
      validateSearch: validateListSearch,
      component: () => <ListScreen entity={entity} />,
    }),
    createRoute({
      getParentRoute: () => parent,
      path: entity.routes.add,
      component: () => <AddForm entity={entity} />,
    }),
    createRoute({
      getParentRoute: () => parent,
      path: `${entity.routes.edit}/$id`,
      component: () => <EditForm entity={entity} />,
    }),
  ];
}
