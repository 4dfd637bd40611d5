import type { Option } from '../../app/records';
import { controlState, FieldError, type FieldProps, fieldClass, fieldId, Label } from './types';

/**
 * A parent or choice select; a parent's options come from the local store (cascading where the
 * form does), told apart by their own parents where two would read the same (db/reads/parent-options.ts).
 */
export function SelectField({
  name,
  spec,
  value,
  onChange,
  required,
  error,
  options,
}: FieldProps & { options: readonly Option[] }) {
  return (
    <div className={fieldClass(error)}>
      <Label name={name} spec={spec} required={required} />
      <FieldError name={name} error={error} />
      <select
        id={fieldId(name)}
        name={name}
        required={required}
        value={String(value)}
        onChange={(e) => onChange(e.target.value)}
        {...controlState(name, error)}
      >
        <option value="">Select {spec.label}</option>
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}
