/**
 * The problems at the top of a longer form: the entity's sentence or a count, then a link to
 * each field; and moving focus to a field with a problem.
 */
import type { EntityDescription } from '../../contract/entity';
import type { FieldProblem } from '../../contract/validation';
import { fieldId } from '../fields/types';

/** Forms with more fields than this list their problems at the top too. */
export const SUMMARY_FROM_FIELDS = 4;

export function focusField(name: string): void {
  const control = document.getElementById(fieldId(name));
  control?.focus();
  control?.scrollIntoView({ block: 'center' });
}

export function ProblemSummary({
  entity,
  problems,
}: {
  entity: EntityDescription;
  problems: FieldProblem[];
}) {
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
