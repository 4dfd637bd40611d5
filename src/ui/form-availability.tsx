/**
 * What a form may offer, from the description and the server: an operation that is our
 * extension (question edit) only when the server has it, and the inputs a chosen code shows
 * (switched-inputs.ts), the code read from the form or from the chosen parent record.
 */
import { Link } from '@tanstack/react-router';
import { type ReactNode, useEffect, useState } from 'react';
import { serverHasExtension } from '../app/capabilities';
import { isExtension } from '../contract/endpoints';
import { entityByName } from '../contract/entities';
import type { EntityDescription } from '../contract/entity';
import { screenTexts } from '../contract/messages';
import { switchCode } from '../contract/switched-inputs';
import { useRecord } from './data';
import { usePageTitle } from './use-page-title';

/** The code that decides which switched inputs appear: a value of the form, or a field of the chosen parent. */
export function useSwitchCode(entity: EntityDescription, values: Record<string, unknown>): string | null {
  const sw = entity.switched;
  const ref = sw?.parentField ? entity.fields[sw.field]?.ref : undefined;
  const parentEntity = ref ? entityByName(ref) : entity;
  const parentId = ref && sw ? String(values[sw.field] ?? '') : '';
  const parent = useRecord(parentEntity, parentId);
  return switchCode(entity, values, ref ? (parent ?? null) : null);
}

/**
 * Shows `children` when the operation is not our extension, or the server has it; else says
 * why the screen offers nothing (nothing is saved, so nothing is queued).
 */
export function ExtensionGate({
  entity,
  op,
  children,
}: {
  entity: EntityDescription;
  op: 'update';
  children: ReactNode;
}) {
  const extension = isExtension(entity, op);
  const [has, setHas] = useState<boolean | null | 'asking'>(extension ? 'asking' : true);
  useEffect(() => {
    if (!extension) return;
    let live = true;
    void serverHasExtension(entity)
      .catch(() => null)
      .then((answer) => {
        if (live) setHas(answer);
      });
    return () => {
      live = false;
    };
  }, [entity, extension]);
  if (has === true) return <>{children}</>;
  return <CannotEdit entity={entity} state={has} />;
}

function CannotEdit({ entity, state }: { entity: EntityDescription; state: false | null | 'asking' }) {
  const title = screenTexts(entity).editTitle;
  usePageTitle(title);
  const n = entity.names;
  return (
    <section className="screen">
      <h1>{title}</h1>
      {state === 'asking' ? (
        <p role="status">Loading… (asking the server whether it can edit {n.many})</p>
      ) : state === false ? (
        <p role="alert">
          This server cannot edit {n.many}: it has no endpoint for it. Nothing was changed or queued.
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
