/**
 * The screens of an extension entity (ours, not the PHP API's: Terms) against a server that
 * lacks it (its read answered 404 at the last pull): the screen says so and offers no form,
 * so nothing is queued that no request could ever deliver. Until a pull has found out, the
 * screen is shown (our server has the extension).
 */
import type { ReactNode } from 'react';
import { type EntityDescription, splitPath } from '../contract/entity';
import { useMissingExtensions } from './extensions-data';
import { usePageTitle } from './use-page-title';

function Missing({ entity, title }: { entity: EntityDescription; title: string }) {
  usePageTitle(title);
  // From the description, not the endpoint table: that would pull the reply schemas (valibot)
  // into a chunk the first load shares (measured: 1.7 KB more at first load).
  const { list, get, add, update } = entity.api;
  const paths = [...new Set([list, get, add, update].flatMap((p) => (p ? [splitPath(p).path] : [])))];
  return (
    <section className="screen">
      <h1>{title}</h1>
      <p role="status">
        This server has no {entity.names.one} endpoint ({paths.join(', ')}), so {entity.names.Many} cannot be
        edited here. Nothing is saved or queued.
      </p>
    </section>
  );
}

export function ExtensionGate({
  entity,
  title,
  children,
}: {
  entity: EntityDescription;
  title: string;
  children: ReactNode;
}) {
  const missing = useMissingExtensions();
  if (!entity.extension) return children;
  if (missing === undefined) return <p className="screen">Loading…</p>;
  if (missing.includes(entity.name)) return <Missing entity={entity} title={title} />;
  return children;
}
