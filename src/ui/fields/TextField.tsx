import type { FieldSpec } from '../../contract/entity';
import { type FieldProps, fieldId, Label } from './types';

function inputType(spec: FieldSpec): string {
  if (spec.kind === 'number') return 'number';
  if (spec.kind === 'email') return 'email';
  if (spec.kind === 'password') return 'password';
  return 'text';
}

export function TextField({ name, spec, value, onChange, required }: FieldProps) {
  const common = {
    id: fieldId(name),
    name,
    required,
    value: String(value),
    maxLength: spec.maxLength,
  };
  return (
    <div className="field">
      <Label name={name} spec={spec} />
      {spec.multiline ? (
        <textarea {...common} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <input {...common} type={inputType(spec)} onChange={(e) => onChange(e.target.value)} />
      )}
    </div>
  );
}
