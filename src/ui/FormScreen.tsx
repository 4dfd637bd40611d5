/**
 * The generic add and edit form, driven by the entity description: one labelled control per
 * form field, required marks, the same validation the server runs, Cancel back to the list.
 * What the administrator typed stays in the form until the change is saved locally; the
 * server's verdict arrives later as a notice (see report-outcome.ts).
 */
import { Link, useNavigate, useParams } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import type { EntityDescription, FieldSpec } from '../contract/entity';
import { messages } from '../contract/messages';
import { validateForm } from '../contract/validation';
import { type Row, saveChange, useRecord } from './data';
import { useNotify } from './notices';
import { reportOutcome } from './report-outcome';
import { decodeRouteId } from './route-id';
import { usePageTitle } from './use-page-title';

type Values = Record<string, string>;

function inputType(spec: FieldSpec): string {
  if (spec.kind === 'number') return 'number';
  if (spec.kind === 'email') return 'email';
  if (spec.kind === 'password') return 'password';
  return 'text';
}

function valuesOf(entity: EntityDescription, row: Row | null): Values {
  const out: Values = {};
  for (const name of entity.form) out[name] = row ? String(row[name] ?? '') : '';
  return out;
}

function Field({
  name,
  spec,
  value,
  onChange,
}: {
  name: string;
  spec: FieldSpec;
  value: string;
  onChange: (v: string) => void;
}) {
  const id = `field-${name}`;
  return (
    <div className="field">
      <label htmlFor={id}>
        {spec.label}
        {spec.required && <span aria-hidden="true"> *</span>}
      </label>
      {spec.kind === 'richtext' ? (
        <textarea
          id={id}
          name={name}
          required={spec.required}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      ) : (
        <input
          id={id}
          name={name}
          type={inputType(spec)}
          required={spec.required}
          maxLength={spec.maxLength}
          value={value}
          onChange={(e) => onChange(e.target.value)}
        />
      )}
    </div>
  );
}

export function AddForm({ entity }: { entity: EntityDescription }) {
  return <EntityForm entity={entity} id={null} initial={valuesOf(entity, null)} />;
}

export function EditForm({ entity }: { entity: EntityDescription }) {
  const { id: raw } = useParams({ strict: false }) as { id: string };
  const id = decodeRouteId(raw);
  const record = useRecord(entity, id ?? '');
  const title = `Update ${entity.names.One}`;
  usePageTitle(title);
  if (id === null || record === null) {
    return (
      <section className="screen">
        <h1>{title}</h1>
        <p role="alert">{entity.names.One} not found.</p>
        <Link to={entity.routes.list}>Back to {entity.names.many}</Link>
      </section>
    );
  }
  if (record === undefined) return <p className="screen">Loading…</p>;
  return <EntityForm entity={entity} id={id} initial={valuesOf(entity, record)} />;
}

function EntityForm({
  entity,
  id,
  initial,
}: {
  entity: EntityDescription;
  id: string | null;
  initial: Values;
}) {
  const mode = id === null ? 'add' : 'update';
  const title = `${mode === 'add' ? 'Add' : 'Update'} ${entity.names.One}`;
  usePageTitle(title);
  const text = messages(entity.names);
  const notify = useNotify();
  const navigate = useNavigate();
  const [values, setValues] = useState<Values>(initial);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const check = validateForm(entity, mode, values);
    if (!check.ok) {
      setProblem(check.message);
      return;
    }
    setBusy(true);
    try {
      const { entryId } =
        id === null
          ? await saveChange({ op: 'add', entity, values })
          : await saveChange({ op: 'update', entity, key: id, values });
      await navigate({ to: entity.routes.list });
      await reportOutcome(
        notify,
        entryId,
        mode === 'add' ? text.added : text.updated,
        mode === 'add' ? text.failedAdd : text.failedUpdate,
      );
    } catch (error) {
      // Nothing was saved; the typed values stay in the form.
      setProblem(mode === 'add' ? text.errorAdd : text.errorUpdate);
      console.error(error);
      setBusy(false);
    }
  };

  return (
    <section className="screen">
      <h1>{title}</h1>
      <form className="form" onSubmit={submit} noValidate={false}>
        {problem && (
          <p className="form-error" role="alert">
            {problem}
          </p>
        )}
        {entity.form.map((name) => (
          <Field
            key={name}
            name={name}
            spec={entity.fields[name]}
            value={values[name] ?? ''}
            onChange={(v) => {
              setProblem(null);
              setValues((all) => ({ ...all, [name]: v }));
            }}
          />
        ))}
        <div className="form-actions">
          <button type="submit" className="button" disabled={busy}>
            {title}
          </button>
          <Link to={entity.routes.list} className="button button-light">
            Cancel
          </Link>
        </div>
      </form>
    </section>
  );
}
