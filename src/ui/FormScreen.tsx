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
 * record is (reveal.ts).
 *
 * From the description, too: inputs that appear by a code (a resource type's entry type, a
 * question's type: switched-inputs.ts), hidden ones sent empty; a form inside one parent (Add
 * Book Pages for the book in the route); an add taking several files, one record each; an add
 * pre-filled from the URL (the Chapters list's Add Question); an edit that is our extension,
 * offered only when the server has it (ExtensionGate.tsx, around the screen). A save that
 * carries files waits on the form, online, showing each upload's progress, before it returns.
 */
import { Link, useNavigate, useParams, useSearch } from '@tanstack/react-router';
import { type FormEvent, lazy, Suspense, useEffect, useRef, useState } from 'react';
import type { DeliveryOutcome } from '../app/records';
import { fieldRefusal, isStorageFull, refusedField, saveChange, saveSeveral } from '../app/records';
import { awaitUploads } from '../app/upload-progress';
import { dependants } from '../contract/cascade';
import { entityByName } from '../contract/entities';
import { type EntityDescription, formFields, type Op } from '../contract/entity';
import { entityMessages, STORAGE_FULL, screenTexts } from '../contract/messages';
import { parentName } from '../contract/parent-names';
import { RESUMABLE_FROM_BYTES } from '../contract/resumable';
import { severalField } from '../contract/several-files';
import { hiddenInputs, isShown } from '../contract/switched-inputs';
import { type FieldProblem, formProblems, isRequired } from '../contract/validation';
import type { Values } from '../db/mutate';
import { type Row, useRecord, useRefOptions } from './data';
import { useContentImages } from './extensions-data';
import { FormActions } from './FormActions';
import { FileField } from './fields/FileField';
import { LocationField } from './fields/LocationField';
import { NameSelectField } from './fields/NameSelectField';
import { SelectField } from './fields/SelectField';
import { TextField } from './fields/TextField';
import { type FieldProps, type FormValue, fieldId } from './fields/types';
import { HistoryLink } from './HistoryLink';
import { useNotify } from './notices';
import { reportOutcome, reportOutcomes } from './report-outcome';
import { encodeRouteId } from './route-id';
import { SendingFiles } from './SendingFiles';
import { useSwitchCode } from './switch-code';
import { usePageTitle } from './use-page-title';

const RichTextField = lazy(() => import('./fields/RichTextField'));

type FormValues = Record<string, FormValue>;

function valuesOf(entity: EntityDescription, op: Op, row: Row | null): FormValues {
  const out: FormValues = {};
  const several = op === 'add' ? severalField(entity) : null;
  const within = entity.routes.within?.field;
  for (const name of [...formFields(entity, op), ...(within ? [within] : [])]) {
    const v = row?.[name];
    out[name] = v instanceof File ? v : v === null || v === undefined ? '' : String(v);
  }
  if (several) out[several.field] = [];
  return out;
}

/**
 * What the form hands to saveChange: on edit, a file field only when a new file was chosen;
 * inputs hidden by the chosen code are sent empty (a hidden file is not sent at all).
 */
function changeValues(
  entity: EntityDescription,
  op: Op,
  values: FormValues,
  hidden: readonly string[],
): Values {
  const out: Values = {};
  for (const [name, v] of Object.entries(values)) {
    const isFile = entity.fields[name]?.kind === 'file';
    if (Array.isArray(v)) continue;
    if (isFile && (hidden.includes(name) || (op === 'update' && !(v instanceof File)))) continue;
    out[name] = hidden.includes(name) ? '' : (v as string | File);
  }
  return out;
}

/** Values an add form takes from its URL: fields of the form named in the search (Add Question from a chapter). */
function fromSearch(entity: EntityDescription, search: Record<string, unknown>): FormValues {
  const out: FormValues = {};
  for (const name of formFields(entity, 'add')) {
    const v = search[name];
    if ((typeof v === 'string' && v !== '') || typeof v === 'number') out[name] = String(v);
  }
  return out;
}

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

/** The record a form inside one parent belongs to: 'Book: Sunrise English Reader 1'. */
function ParentName({ entity, field, id }: { entity: EntityDescription; field: string; id: string }) {
  const spec = entity.fields[field];
  const parent = entityByName(spec.ref ?? '');
  const row = useRecord(parent, id);
  if (!row) return null;
  return (
    <p className="screen-parent">
      {spec.label}: <strong>{parentName(parent, row)}</strong>
    </p>
  );
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

/** The form's location levels by level ('country', 'state'), for the levels below them. */
function locationOf(entity: EntityDescription, values: FormValues): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(entity.fields))
    if (spec.location) out[spec.location] = values[name];
  return out;
}

/** Forms with more fields than this list their problems at the top too. */
const SUMMARY_FROM_FIELDS = 4;

function focusField(name: string): void {
  const control = document.getElementById(fieldId(name));
  control?.focus();
  control?.scrollIntoView({ block: 'center' });
}

/** The problems at the top of a longer form: the entity's sentence or a count, then a link to each field. */
function ProblemSummary({ entity, problems }: { entity: EntityDescription; problems: FieldProblem[] }) {
  const headline =
    entity.requiredMessage && problems.some((p) => p.missing)
      ? entity.requiredMessage
      : problems.length === 1
        ? 'One field needs a correction'
        : `${problems.length} fields need a correction`;
  return (
    <div className="error-summary">
      <p role="alert" className="form-error">
        {headline}
      </p>
      <ul>
        {problems.map((p) => (
          <li key={p.field}>
            <a
              href={`#${fieldId(p.field)}`}
              onClick={(e) => {
                e.preventDefault();
                focusField(p.field);
              }}
            >
              {p.message}
            </a>
          </li>
        ))}
      </ul>
    </div>
  );
}

function EntityForm({
  entity,
  id,
  initial,
  note,
}: {
  entity: EntityDescription;
  id: string | null;
  initial: FormValues;
  note?: string;
}) {
  const op: Op = id === null ? 'add' : 'update';
  const texts = screenTexts(entity);
  const title = op === 'add' ? texts.addTitle : texts.editTitle;
  const submitLabel = op === 'add' ? texts.addSubmit : texts.editSubmit;
  const within = entity.routes.within?.field;
  /**
   * Where the form goes after a save and on Cancel: the description's place, the list (inside
   * the record's parent where lists are), or for a single document itself.
   */
  const back =
    entity.routes.afterSave ??
    (within && entity.routes.list
      ? `${entity.routes.list}/${encodeRouteId(String(initial[within]))}`
      : (entity.routes.list ?? entity.routes.edit ?? '/homepage'));
  usePageTitle(title);
  const text = entityMessages(entity);
  const notify = useNotify();
  const navigate = useNavigate();
  const fields = formFields(entity, op);
  const cascade = entity.cascadeIn?.includes(op) ?? true;
  const [values, setValues] = useState<FormValues>(initial);
  const [problems, setProblems] = useState<FieldProblem[]>([]);
  /** A failure of the save itself (storage full), not of a field. */
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  /** The changes whose files are on their way, while the form waits for them (online). */
  const [sending, setSending] = useState<string[] | null>(null);
  /** Bumped by each refused submit: focus then goes to the first problem, once it is drawn. */
  const [refusals, setRefusals] = useState(0);
  const failureRef = useRef<HTMLParagraphElement>(null);
  const options = useRefOptions(entity, fields, values, cascade);
  const images = useContentImages();
  const code = useSwitchCode(entity, values);
  const shown = fields.filter((name) => isShown(entity, name, code));

  // biome-ignore lint/correctness/useExhaustiveDependencies: runs after each refused submit, not when problems change as fields are corrected
  useEffect(() => {
    if (refusals > 0 && problems[0]) focusField(problems[0].field);
  }, [refusals]);

  useEffect(() => {
    if (failure) failureRef.current?.focus();
  }, [failure]);

  // Opened to correct a change the server refused at a field (Edit on the outbox): said there.
  useEffect(() => {
    if (id !== null)
      void refusedField(entity, id).then(
        (refused) => refused && setProblems([{ ...refused, missing: false }]),
      );
  }, [entity, id]);

  const change = (name: string, value: FormValue) => {
    setFailure(null);
    const cleared = new Set([name, ...(cascade ? dependants(entity, name, fields) : [])]);
    setProblems((all) => all.filter((p) => !cleared.has(p.field)));
    setValues((all) => {
      const next = { ...all, [name]: value };
      // Changing an upper level clears the lower ones (spec §4).
      if (cascade) for (const below of dependants(entity, name, fields)) next[below] = '';
      return next;
    });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = formProblems(entity, op, values, code);
    setProblems(found);
    if (found.length > 0) {
      setRefusals((n) => n + 1);
      return;
    }
    setBusy(true);
    try {
      const changed = changeValues(entity, op, values, hiddenInputs(entity, fields, code));
      const several = op === 'add' ? severalField(entity) : null;
      const files = several ? ((values[several.field] as readonly File[] | undefined) ?? []) : [];
      let saved: { entryId: string | null; key: string }[];
      if (several) saved = await saveSeveral(entity, changed, files);
      else
        saved = [
          id === null
            ? await saveChange({ op: 'add', entity, values: changed })
            : await saveChange({ op: 'update', entity, key: id, values: changed }),
        ];
      const entryIds = saved.map((s) => s.entryId).filter((e): e is string => e !== null);
      const success = op === 'add' ? text.added : text.updated;
      const failure = op === 'add' ? text.failedAdd : text.failedUpdate;
      // Only a list of this entity can show the new record.
      const reveal = op === 'add' && !entity.routes.afterSave ? saved[0]?.key : undefined;
      const blobs = [...files, ...Object.values(changed).filter((v) => v instanceof Blob)];
      let outcomes: DeliveryOutcome[] | null = null;
      if (blobs.length > 0 && navigator.onLine && entryIds.length > 0) {
        setSending(entryIds);
        outcomes = await awaitUploads(
          entryIds,
          blobs.some((b) => b.size > RESUMABLE_FROM_BYTES),
        );
      }
      await navigate({ to: back, state: (s) => ({ ...s, reveal }) });
      if (outcomes) reportOutcomes(notify, outcomes, success, failure);
      else await reportOutcome(notify, entryIds[0] ?? null, success, failure);
    } catch (error) {
      // Nothing was saved (one transaction); the typed values stay in the form.
      setBusy(false);
      setSending(null);
      // A value another record holds: said at its field, like the form's own checks.
      const atField = fieldRefusal(error);
      if (atField) {
        setProblems([{ ...atField, missing: false }]);
        setRefusals((n) => n + 1);
        return;
      }
      const detail = isStorageFull(error) ? STORAGE_FULL : null;
      setFailure(detail ?? (op === 'add' ? text.errorAdd : text.errorUpdate));
      console.error(error);
    }
  };

  const errorOf = (name: string) => problems.find((p) => p.field === name)?.message;

  return (
    <section className="screen">
      <h1>{title}</h1>
      {id !== null && <HistoryLink entity={entity} id={id} />}
      {note && <p className="muted">{note}</p>}
      {within && <ParentName entity={entity} field={within} id={String(initial[within] ?? '')} />}
      {/* The form checks every field itself (formProblems), so the browser's bubbles stay away. */}
      <form className="form" onSubmit={submit} noValidate>
        {failure && (
          <p className="form-error" role="alert" tabIndex={-1} ref={failureRef}>
            {failure}
          </p>
        )}
        {problems.length > 0 && (shown.length >= SUMMARY_FROM_FIELDS || entity.requiredMessage) && (
          <ProblemSummary entity={entity} problems={problems} />
        )}
        <div className="form-grid">
          {shown.map((name) => {
            const spec = entity.fields[name];
            const props: FieldProps = {
              name,
              spec,
              value: values[name] ?? '',
              onChange: (v) => change(name, v),
              required: isRequired(spec, op),
              mode: op,
              error: errorOf(name),
            };
            if (spec.kind === 'ref')
              return <SelectField key={name} {...props} options={options[name] ?? []} />;
            if (spec.kind === 'choice')
              return <SelectField key={name} {...props} options={spec.choices ?? []} />;
            if (spec.kind === 'file') return <FileField key={name} {...props} />;
            if (spec.location)
              return <LocationField key={name} {...props} values={locationOf(entity, values)} />;
            if (spec.namesOf) return <NameSelectField key={name} {...props} />;
            if (spec.kind === 'richtext') {
              return (
                <Suspense key={name} fallback={<p className="muted">Loading editor…</p>}>
                  <RichTextField {...props} {...images} />
                </Suspense>
              );
            }
            return <TextField key={name} {...props} />;
          })}
        </div>
        {sending && (
          <SendingFiles entity={entity} entryIds={sending} onContinue={() => void navigate({ to: back })} />
        )}
        <FormActions submit={submitLabel} disabled={busy} back={back} />
      </form>
    </section>
  );
}
