import { useEffect, useRef, useState } from 'react';
import type { FieldSpec } from '../../contract/entity';
import { fieldProblem } from '../../contract/validation';
import { type FieldProps, fieldId, Label } from './types';

function inputType(spec: FieldSpec): string {
  if (spec.kind === 'number') return 'number';
  if (spec.kind === 'email') return 'email';
  if (spec.kind === 'password') return 'password';
  if (spec.kind === 'url') return 'url';
  return 'text';
}

/**
 * A text control. A value the server would refuse (a link that is not http or https) is
 * reported at the field, in the contract's words, once the administrator leaves it or
 * submits; the browser's own check hears the same words, so the form is not sent.
 */
export function TextField({ name, spec, value, onChange, required }: FieldProps) {
  const problem = fieldProblem(spec, value);
  const [shown, setShown] = useState(false);
  const input = useRef<HTMLInputElement & HTMLTextAreaElement>(null);
  useEffect(() => input.current?.setCustomValidity(problem ?? ''), [problem]);
  const errorId = `${fieldId(name)}-error`;
  const showProblem = shown && problem !== null;
  const common = {
    id: fieldId(name),
    name,
    required,
    value: String(value),
    maxLength: spec.maxLength,
    ref: input,
    onBlur: () => setShown(true),
    onInvalid: () => setShown(true),
    'aria-invalid': showProblem || undefined,
    'aria-describedby': showProblem ? errorId : undefined,
  };
  return (
    <div className="field">
      <Label name={name} spec={spec} />
      {spec.multiline ? (
        <textarea {...common} onChange={(e) => onChange(e.target.value)} />
      ) : (
        <input {...common} type={inputType(spec)} onChange={(e) => onChange(e.target.value)} />
      )}
      {showProblem && (
        <p id={errorId} className="form-error">
          {problem}
        </p>
      )}
    </div>
  );
}
