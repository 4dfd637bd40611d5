/**
 * The generic add and edit form, driven by the entity description: one labelled control per
 * form field (text, textarea, rich text, parent select, file), required marks, cascading
 * selects that clear the levels below when one changes, the same validation the server
 * runs, Cancel back to the list. What the administrator typed stays in the form until the
 * change is saved locally; the server's verdict arrives as a notice (report-outcome.ts).
 *
 * Problems show at each field (tied to it with aria-describedby, aria-invalid set) and focus
 * goes to the first; longer forms also list them at the top, each a link to its field, under
 * the entity's own sentence where the spec has one ('Please fill in all required fields').
 * Wide screens lay the fields out in two columns. After an add, the list opens where the new
 * record is (ui/list/reveal.ts).
 *
 * From the description, too: inputs that appear by a code (a resource type's entry type, a
 * question's type: switched-inputs.ts), hidden ones sent empty; a form inside one parent (Add
 * Book Pages for the book in the route); an add taking several files, one record each; an add
 * pre-filled from the URL (the Chapters list's Add Question); an edit that is our extension,
 * offered only when the server has it (ExtensionGate.tsx, around the screen). A save that
 * carries files waits on the form, online, showing each upload's progress, before it returns.
 *
 * This file holds the two screens (add, edit) and what they show when the record is not there;
 * the form itself is in form/: EntityForm.tsx (state), use-form-save.ts (check, save, notice),
 * form-values.ts, save-form.ts, FormField.tsx (the control by kind), ProblemSummary.tsx and
 * use-changed-elsewhere.ts (the record changed on another device while the form is open).
 */
import { Link, useParams, useSearch } from '@tanstack/react-router';
import type { EntityDescription } from '../../contract/entity';
import { screenTexts } from '../../contract/messages';
import { useRecord } from '../data';
import { usePageTitle } from '../use-page-title';
import { EntityForm } from './EntityForm';
import { fromSearch, valuesOf } from './form-values';

/** `note`: a sentence under the heading (what an alias route such as /addterms saves). */
export function AddForm({ entity, note }: { entity: EntityDescription; note?: string }) {
  const search = useSearch({ strict: false }) as Record<string, unknown>;
  // Decoded by the router (route-id.ts: routeIdParams).
  const { id: routeId } = useParams({ strict: false }) as { id?: string };
  const within = entity.routes.within?.field;
  const parent = within ? (routeId ?? null) : null;
  const title = screenTexts(entity).addTitle;
  if (within && parent === null) return <NotFound entity={entity} title={title} />;
  const initial = {
    ...valuesOf(entity, 'add', null),
    ...fromSearch(entity, search),
    ...(within && parent !== null ? { [within]: parent } : {}),
  };
  return <EntityForm entity={entity} id={null} initial={initial} note={note} />;
}

function NotFound({ entity, title }: { entity: EntityDescription; title: string }) {
  usePageTitle(title);
  return (
    <section className="screen">
      <h1>{title}</h1>
      <p role="alert">{entity.names.One} not found.</p>
      {entity.routes.list && !entity.routes.within && (
        <Link to={entity.routes.list}>Back to {entity.names.many}</Link>
      )}
    </section>
  );
}

export function EditForm({ entity }: { entity: EntityDescription }) {
  const { id: routeId } = useParams({ strict: false }) as { id?: string };
  // A single document has one record; others name theirs in the route (decoded by the router).
  const id = entity.single ? entity.single.id : (routeId ?? null);
  const record = useRecord(entity, id ?? '');
  const title = screenTexts(entity).editTitle;
  usePageTitle(title);
  if (id === null || record === null) {
    return (
      <section className="screen">
        <h1>{title}</h1>
        <p role="alert">
          {entity.single
            ? `${title}: not on this device yet. It loads at the next sync with the server.`
            : `${entity.names.One} not found.`}
        </p>
        {entity.routes.list && <Link to={entity.routes.list}>Back to {entity.names.many}</Link>}
      </section>
    );
  }
  if (record === undefined) return <p className="screen">Loading…</p>;
  return <EntityForm entity={entity} id={id} initial={valuesOf(entity, 'update', record)} />;
}
