import type { Option } from '../../app/records';
import { type FieldProps, fieldId, Label } from './types';

/** A parent select; its options come from the local store (cascading where the form does). */
export function SelectField({
  name,
  spec,
  value,
  onChange,
  required,
  options,
}: FieldProps & { options: readonly Option[] }) {
  return (
    <div className="field">
      <Label name={name} spec={spec} />
      <select
        id={fieldId(name)}
        name={name}
        required={required}
        value={String(value)}
        onChange={(e) => onChange(e.target.value)}
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
