import type { FieldSpec } from '../../contract/entity';
import { controlState, FieldError, type FieldProps, fieldClass, fieldId, Label } from './types';

function inputType(spec: FieldSpec): string {
  if (spec.kind === 'number') return 'number';
  if (spec.kind === 'email') return 'email';
  if (spec.kind === 'password') return 'password';
  if (spec.kind === 'url') return 'url';
  if (spec.kind === 'phone') return 'tel';
  return 'text';
}

export function TextField({ name, spec, value, onChange, required, error }: FieldProps) {
  const common = {
    id: fieldId(name),
    name,
    required,
    value: String(value),
    maxLength: spec.maxLength,
    ...controlState(name, error),
  };
  return (
    <div className={fieldClass(error, spec.multiline)}>
      <Label name={name} spec={spec} />
      <FieldError name={name} error={error} />
      {spec.multiline ? (
        <textarea {...common} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <input {...common} type={inputType(spec)} onChange={(e) => onChange(e.target.value)} />
      )}
    </div>
  );
}
