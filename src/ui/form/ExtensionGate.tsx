/**
 * A screen whose operation is our extension, not the PHP API's (ExtensionGate), against a
 * server that lacks it: the screen says so and offers no form, so nothing is queued that no
 * request could ever deliver. What the device knows comes from db/known-extensions.ts: a whole
 * extension entity (Terms) is learned by the pulls (a 404 to its read) and shown until they
 * find it missing (our server has it); an extension operation (question edit) is asked of the
 * server when the screen opens and offered only once the server said it has it.
 */
import { Link } from '@tanstack/react-router';
import { type ReactNode, useEffect, useState } from 'react';
import { serverHasExtension } from '../../app/server-extensions';
import { type EntityDescription, isExtension, splitPath } from '../../contract/entity';
import { useKnownExtensions } from '../extensions-data';
import { usePageTitle } from '../use-page-title';

export function ExtensionGate({
  entity,
  op,
  title,
  children,
}: {
  entity: EntityDescription;
  op: 'add' | 'update';
  title: string;
  children: ReactNode;
}) {
  const gated = isExtension(entity, op);
  // Only an extension operation is asked for here; the pulls learn about whole entities.
  const asks = gated && !entity.extension;
  const [asking, setAsking] = useState(asks);
  useEffect(() => {
    if (!asks) return;
    let live = true;
    void serverHasExtension(entity)
      .catch(() => null)
      .finally(() => {
        if (live) setAsking(false);
      });
    return () => {
      live = false;
    };
  }, [entity, asks]);
  const known = useKnownExtensions();
  if (!gated) return children;
  if (asking) return <Unavailable entity={entity} title={title} state="asking" />;
  if (known === undefined) return <p className="screen">Loading…</p>;
  const has = known[entity.name];
  if (has === true || (has === undefined && entity.extension)) return children;
  return <Unavailable entity={entity} title={title} state={has === false ? 'missing' : 'unknown'} />;
}

function Unavailable({
  entity,
  title,
  state,
}: {
  entity: EntityDescription;
  title: string;
  state: 'asking' | 'missing' | 'unknown';
}) {
  usePageTitle(title);
  const n = entity.names;
  // From the description, not the endpoint table: that would pull the reply schemas (valibot)
  // into a chunk the first load shares (measured: 1.7 KB more at first load).
  const { list, get, add, update } = entity.api;
  const named = entity.extension ? [list, get, add, update] : [get, update];
  const paths = [...new Set(named.flatMap((p) => (p ? [splitPath(p).path] : [])))].join(', ');
  return (
    <section className="screen">
      <h1>{title}</h1>
      {state === 'asking' ? (
        <p role="status">Loading… (asking the server whether it can edit {n.many})</p>
      ) : state === 'missing' ? (
        <p role="alert">
          {entity.extension
            ? `This server has no ${n.one} endpoint (${paths}), so ${n.Many} cannot be edited here.`
            : `This server cannot edit ${n.many}: it has no endpoint for it (${paths}).`}{' '}
          Nothing was changed or queued.
        </p>
      ) : (
        <p role="alert">
          The app could not yet ask this server whether it can edit {n.many}. Connect to the internet and open
          this screen again; nothing was changed or queued.
        </p>
      )}
      {entity.routes.list && (
        <Link to={entity.routes.list} className="button button-light">
          Back to {n.many}
        </Link>
      )}
    </section>
  );
}
