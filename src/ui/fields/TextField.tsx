import type { FieldSpec } from '../../contract/entity';
import {
  controlState,
  FieldError,
  type FieldProps,
  FieldWarning,
  fieldClass,
  fieldId,
  hintId,
  Label,
} from './types';

/** An edit form leaves a password empty to keep the current one (design brief §4). */
export const KEEP_PASSWORD = 'Leave empty to keep the current password.';

function inputType(spec: FieldSpec): string {
  if (spec.kind === 'number') return 'number';
  if (spec.kind === 'email') return 'email';
  if (spec.kind === 'password') return 'password';
  if (spec.kind === 'url') return 'url';
  if (spec.kind === 'phone') return 'tel';
  return 'text';
}

/**
 * The field's limit, said under it: the control takes longer text (a paste is never cut without
 * a word) and the form's check says at the field that it is too long, as the server would.
 */
const limitOf = (spec: FieldSpec) =>
  spec.maxLength !== undefined && spec.kind !== 'password' ? `At most ${spec.maxLength} characters.` : null;

export function TextField({ name, spec, value, onChange, required, error, warning, mode }: FieldProps) {
  const ownHint = mode === 'update' && spec.kind === 'password' ? KEEP_PASSWORD : spec.hint;
  const hint = [ownHint, limitOf(spec)].filter(Boolean).join(' ') || undefined;
  const common = {
    id: fieldId(name),
    name,
    required,
    value: String(value),
    autoComplete: spec.kind === 'password' ? 'new-password' : undefined,
    ...controlState(name, error, hint, warning),
  };
  return (
    <div className={fieldClass(error, spec.multiline)}>
      <Label name={name} spec={spec} required={required} />
      <FieldError name={name} error={error} />
      {spec.multiline ? (
        <textarea {...common} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <input {...common} type={inputType(spec)} onChange={(e) => onChange(e.target.value)} />
      )}
      <FieldWarning name={name} warning={warning} />
      {hint && (
        <small id={hintId(name)} className="muted">
          {hint}
        </small>
      )}
    </div>
  );
}
