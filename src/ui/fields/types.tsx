import type { FieldSpec } from '../../contract/entity';

/** What a form holds per field: text, a chosen file, several chosen files, or a stored file name. */
export type FormValue = string | File | readonly File[];

export interface FieldProps {
  name: string;
  spec: FieldSpec;
  value: FormValue;
  onChange: (value: FormValue) => void;
  /** Marks the control required (the form checks the values itself: FormScreen). */
  required: boolean;
  mode: 'add' | 'update';
  /** The field's problem, shown at the field and tied to the control. */
  error?: string;
  /** Something to know before saving that does not stop the save (a value already used). */
  warning?: string;
  /** A file field's stored file by the name it had on the device (original-file-name.ts). */
  originalName?: string;
}

export const fieldId = (name: string) => `field-${name}`;
export const errorId = (name: string) => `field-${name}-error`;
export const hintId = (name: string) => `field-${name}-hint`;
export const warningId = (name: string) => `field-${name}-warning`;

/** The control's accessible state: aria-invalid, and aria-describedby naming its error, warning and hint. */
export function controlState(
  name: string,
  error: string | undefined,
  hint?: string | null,
  warning?: string,
) {
  const ids = [
    error ? errorId(name) : null,
    warning ? warningId(name) : null,
    hint ? hintId(name) : null,
  ].filter((x) => x !== null);
  return {
    'aria-invalid': error ? (true as const) : undefined,
    'aria-describedby': ids.length > 0 ? ids.join(' ') : undefined,
  };
}

/** A field's label, marked when the form needs a value (not an edit form's password: FieldProps). */
export function Label({ name, spec, required }: { name: string; spec: FieldSpec; required: boolean }) {
  return (
    <label htmlFor={fieldId(name)}>
      {spec.label}
      {required && <span aria-hidden="true"> *</span>}
    </label>
  );
}

export function FieldError({ name, error }: { name: string; error?: string }) {
  if (!error) return null;
  return (
    <p id={errorId(name)} className="field-error">
      {error}
    </p>
  );
}

export function FieldWarning({ name, warning }: { name: string; warning?: string }) {
  if (!warning) return null;
  return (
    <p id={warningId(name)} className="field-warning" role="status">
      {warning}
    </p>
  );
}

/** A field's frame: label, its error, the control; `wide` spans both columns of a wide form. */
export function fieldClass(error: string | undefined, wide = false): string {
  return `field${wide ? ' field-wide' : ''}${error ? ' field-invalid' : ''}`;
}
