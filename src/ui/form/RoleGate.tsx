/**
 * A screen that only changes data (add, import, Assign Books) opened by a role that may not
 * change its entity (a bookmark, a typed address): it says so in the words the server would
 * use, and offers no form, so nothing is typed that could not be saved.
 */
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { cannotChange } from '../../contract/accounts/roles';
import type { EntityDescription } from '../../contract/entity';
import { useMayStartChanging } from '../may-change';
import { useRole } from '../role';
import { usePageTitle } from '../use-page-title';

export function RoleGate({
  entity,
  title,
  children,
}: {
  entity: EntityDescription;
  title: string;
  children: ReactNode;
}) {
  return useMayStartChanging(entity) ? children : <Refused entity={entity} title={title} />;
}

function Refused({ entity, title }: { entity: EntityDescription; title: string }) {
  usePageTitle(title);
  const role = useRole();
  return (
    <section className="screen">
      <h1>{title}</h1>
      <p role="alert">{cannotChange(role, entity)} Nothing was changed or queued.</p>
      {entity.routes.list && (
        <Link to={entity.routes.list} className="button button-light">
          Back to {entity.names.many}
        </Link>
      )}
    </section>
  );
}
