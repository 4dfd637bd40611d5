import type { FieldSpec } from '../../contract/entity';

/** What a form holds per field: text, a chosen file, or a stored file name. */
export type FormValue = string | File;

export interface FieldProps {
  name: string;
  spec: FieldSpec;
  value: FormValue;
  onChange: (value: FormValue) => void;
  /** The browser's required check; off where the spec has a script check instead. */
  required: boolean;
  mode: 'add' | 'update';
}

export const fieldId = (name: string) => `field-${name}`;

export function Label({ name, spec }: { name: string; spec: FieldSpec }) {
  return (
    <label htmlFor={fieldId(name)}>
      {spec.label}
      {spec.required && <span aria-hidden="true"> *</span>}
    </label>
  );
}
